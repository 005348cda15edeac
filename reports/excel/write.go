package excel

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/munshi/munshi/internal/domain"
)

// ContentType is the media type of the files Write makes.
const ContentType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

// Limits of a sheet.
const (
	// MaxDataRows is the most data rows a sheet holds: Excel's 1,048,576
	// rows less the header and the totals row.
	MaxDataRows = 1_048_576 - 2
	// MaxColumns is Excel's column limit.
	MaxColumns = 16_384
	// MaxNumber is the largest magnitude a number cell (in its own unit:
	// paise, base units) or a total may have: Excel keeps 15 significant
	// digits, and a larger figure would not add up to the paisa.
	MaxNumber = 999_999_999_999_999
	// SampleRows is how many rows column widths are worked out from.
	SampleRows = 100
)

// ErrTooManyRows is returned (wrapped) when a sheet has more than
// MaxDataRows rows; its message is fit to show the person who asked.
var ErrTooManyRows = domain.Errorf(domain.EINVALID,
	"That is more rows than one Excel sheet can hold (%s); please ask for a shorter period.",
	domain.GroupIndian(MaxDataRows))

// checkEvery is how many rows pass between looks at the context.
const checkEvery = 1024

// Write writes the workbook to w as an .xlsx file: the data sheets in
// order, then the About sheet. It reads each sheet's rows once, as it
// writes them, and stops early with ctx.Err() when ctx ends. On any error
// what reached w is not a usable file and must be thrown away. Empty input
// is not an error: an empty sheet still has its header, and the About
// sheet says it has no rows.
func Write(ctx context.Context, w io.Writer, wb Workbook) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := wb.validate(); err != nil {
		return err
	}
	loc := wb.Location
	if loc == nil {
		loc = kolkata
	}
	about := wb.About
	if about.MadeAt.IsZero() {
		about.MadeAt = time.Now()
	}

	f := excelize.NewFile()
	defer f.Close()
	out := &output{ctx: ctx, w: w}
	// excelize builds the whole zip in a bytes.Buffer before writing it out;
	// a zip writer of our own that ignores that buffer sends it straight to
	// w instead, so the finished file is never held in memory.
	f.SetZipWriter(func(io.Writer) excelize.ZipWriter { return zip.NewWriter(out) })

	st, err := newStyles(f)
	if err != nil {
		return err
	}
	names, aboutName, err := addSheets(f, wb.Sheets)
	if err != nil {
		return err
	}
	counts := make([]int, len(wb.Sheets))
	for i, sh := range wb.Sheets {
		if counts[i], err = writeSheet(ctx, f, st, names[i], sh, loc); err != nil {
			return stopped(ctx, err)
		}
	}
	if err := writeAbout(f, st, aboutName, about, names, counts, loc); err != nil {
		return err
	}
	if err := setProperties(f, about); err != nil {
		return err
	}
	// The first sheet is already the active one. (excelize's SetActiveSheet
	// would parse every streamed sheet back from XML, for nothing.)
	if err := f.Write(io.Discard); err != nil {
		return stopped(ctx, fmt.Errorf("excel: writing the file: %w", err))
	}
	return nil
}

// Bytes is Write into memory, for small files.
func Bytes(ctx context.Context, wb Workbook) ([]byte, error) {
	var buf bytes.Buffer
	if err := Write(ctx, &buf, wb); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// kolkata is the business's default zone, for a workbook that names none.
var kolkata = domain.DefaultLocation()

// stopped returns ctx.Err() when the context ended, else err.
func stopped(ctx context.Context, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	return err
}

// output passes the zip to the caller's writer, and stops it when the
// context ends.
type output struct {
	ctx context.Context
	w   io.Writer
}

func (o *output) Write(p []byte) (int, error) {
	if err := o.ctx.Err(); err != nil {
		return 0, err
	}
	return o.w.Write(p)
}

func (wb Workbook) validate() error {
	if len(wb.Sheets) == 0 {
		return errors.New("excel: a workbook needs at least one sheet")
	}
	for _, sh := range wb.Sheets {
		if len(sh.Columns) == 0 || len(sh.Columns) > MaxColumns {
			return fmt.Errorf("excel: sheet %q has %d columns (want 1 to %d)", sh.Name, len(sh.Columns), MaxColumns)
		}
		for _, c := range sh.Columns {
			if c.Kind < Text || c.Kind > Days {
				return fmt.Errorf("excel: sheet %q column %q: unknown kind %d", sh.Name, c.Header, c.Kind)
			}
			if c.Sum && !c.Kind.summable() {
				return fmt.Errorf("excel: sheet %q column %q: a %s column cannot be summed", sh.Name, c.Header, c.Kind)
			}
			if c.Width < 0 || c.Width > 255 {
				return fmt.Errorf("excel: sheet %q column %q: width %g is not 0 to 255", sh.Name, c.Header, c.Width)
			}
		}
	}
	return nil
}

// addSheets makes the workbook's tabs, data sheets first and About last,
// and returns their names.
func addSheets(f *excelize.File, sheets []Sheet) ([]string, string, error) {
	taken := map[string]bool{}
	names := make([]string, len(sheets))
	for i, sh := range sheets {
		names[i] = sheetName(sh.Name, taken, fmt.Sprintf("Sheet %d", i+1))
	}
	about := sheetName("About", taken, "About this file")
	first := f.GetSheetName(0)
	if err := f.SetSheetName(first, names[0]); err != nil {
		return nil, "", fmt.Errorf("excel: naming sheet %q: %w", names[0], err)
	}
	for _, name := range slices.Concat(names[1:], []string{about}) {
		if _, err := f.NewSheet(name); err != nil {
			return nil, "", fmt.Errorf("excel: adding sheet %q: %w", name, err)
		}
	}
	return names, about, nil
}

func setProperties(f *excelize.File, a About) error {
	made := a.MadeAt.UTC().Format(time.RFC3339)
	err := f.SetDocProps(&excelize.DocProperties{
		Title:       cleanText(a.Title, false),
		Description: cleanText(a.Description, false),
		Creator:     madeBy(a),
		Created:     made,
		Modified:    made,
		Language:    "en-IN",
	})
	if err != nil {
		return fmt.Errorf("excel: document properties: %w", err)
	}
	return nil
}

func madeBy(a About) string {
	if by := cleanText(a.MadeBy, false); by != "" {
		return by
	}
	return "Munshi"
}

// excelEpoch is day 0 of Excel's 1900 date system (as Excel counts, with
// its phantom 29 February 1900, from 1 March 1900 on).
var excelEpoch = time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)

// serial is t as an Excel date serial number in loc: whole days, and the
// time of day to the minute when withTime. ok is false outside the dates
// Excel shows (1 March 1900 to 9999).
func serial(t time.Time, loc *time.Location, withTime bool) (v float64, ok bool) {
	lt := t.In(loc)
	y, m, d := lt.Date()
	if y < 1900 || y > 9999 || y == 1900 && m < time.March {
		return 0, false
	}
	days := (time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() - excelEpoch.Unix()) / 86400
	v = float64(days)
	if withTime {
		v += float64(lt.Hour()*60+lt.Minute()) / 1440
	}
	return v, true
}
