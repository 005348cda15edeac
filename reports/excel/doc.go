// Package excel renders spreadsheets (.xlsx) that owners can forward to
// their CA: outstanding dues, pending orders, sales for a period, payments
// received and the stock list, each with an About sheet saying what the
// file holds.
//
// It owns drawing a workbook from rows it is given, nothing else. reports
// builds the data from the same typed tools that make the WhatsApp answers
// and hands it here, so that text, chart and file agree to the paisa; the
// only figures it works out itself are sums and differences of the rows it
// is given (totals, headroom, available stock, the sales summaries). It
// must not query the books, send messages or keep the files it makes (the
// media store does); it imports no Munshi package but internal/domain.
//
// # The model
//
// A Workbook is one or more Sheets and an About. A Sheet has Columns (a
// header and a Kind: text, integer, quantity, money in paise, percent,
// date, date-time, days) and Rows, an iterator: rows are written as they
// come, so half a million order lines never sit in memory. Columns marked
// Sum get a totals row. Write streams the file to an io.Writer; Outstanding,
// PendingOrders, Sales, PaymentsReceived and Stock build the workbooks
// reports needs from typed rows.
//
// # What a file looks like
//
//   - the header row is bold, frozen, and carries an auto filter over the data;
//   - column widths come from the header and the first SampleRows rows;
//   - dates and date-times are Excel dates (numbers with a date format) in
//     the workbook's time zone, Asia/Kolkata unless told otherwise;
//   - money, integers and quantities are numbers with Indian digit grouping
//     (₹12,34,567.00). Excel allows two conditions per number format, and
//     Excel and LibreOffice disagree about the minus sign of a negative
//     number in a conditional section, so each cell's format is chosen by
//     its value: a non-negative amount below ₹100 crore gets the adaptive
//     conditional format (lakh and crore grouping as the value changes), any
//     other amount a fixed two-section format for its number of digits whose
//     negative section writes the minus itself. Every viewer then shows the
//     same figure;
//   - the totals row holds SUM formulas that also carry their computed values,
//     for viewers that do not recalculate (WhatsApp's preview, phone apps).
//
// # Hostile text
//
// Customer and product names are written as text cells, never formulas:
// control characters are replaced or dropped, bidirectional overrides are
// dropped, text is cut to Excel's 32,767-character cell limit, and text
// that starts like a formula (=, +, -, @) is also marked quote-prefixed, so
// editing the cell in Excel keeps it text.
//
// # For reports
//
//	wb := excel.Sales(excel.About{Period: excel.Period{From: from, To: to}, MadeFor: user.Name}, lines)
//	err := excel.Write(ctx, w, wb) // or excel.Bytes(ctx, wb)
//	name := excel.FileName("sales", now, loc) // sales-2026-11-30.xlsx, served as excel.ContentType
//
// Outstanding, PendingOrders, Sales and Stock take an iter.Seq2 of their
// row type (Slice turns a slice into one), so reports can page through the
// books as the file is written. A sheet over MaxDataRows rows fails with
// ErrTooManyRows, whose message can be shown to the person who asked.
//
// # Memory and time
//
// excelize's stream writer keeps up to 16 MiB of a sheet's XML in memory
// and spills the rest to a temporary file (in os.TempDir); Write hands
// excelize a zip writer that compresses straight into the caller's writer.
// Text is written as inline strings, so no shared-string table grows with
// the rows. What does grow is the sheet's in-memory XML up to that 16 MiB
// and, in the chat, the finished file, which is held in memory for the
// media store up to WhatsApp's 16 MB cap. Measured on a shared 2-core
// machine: the writer alone on generated lines (BenchmarkSalesExport),
// 10,000 lines peak at 26 MiB of heap and 500,000 at 65 MiB; a sales file
// from the books through the chat's path (BenchmarkSalesExcelFromBooks),
// a week's 8,769 lines peak at 53 MiB and 199,172 lines (the most that
// fit the cap) at 124 MiB. Half the time is deflate, most of the rest
// excelize's cell encoding; an export that large must be made in the
// background, not inside the webhook's budget.
package excel
