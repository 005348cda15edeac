package reportstest

import (
	"context"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// PaymentBooks is what KnownPayments writes to; every store.Store is one.
type PaymentBooks interface {
	AddHistory(ctx context.Context, orders []domain.Order, payments []domain.Payment) error
	ImportHistory(ctx context.Context, orders []domain.Order, payments []domain.Payment) (domain.HistoryImport, error)
}

// KnownPayments adds payments to Known's books, as the chat records them
// and one from a history file, whose sums are worked out by hand (times
// in Kolkata; Now is 09:30 on Saturday 14 March 2026):
//
//	C01 Rajesh  ₹10,000     UPI            14 Mar 09:00  UTR1001
//	C01 Rajesh  ₹5,000.50   cash           14 Mar 08:00
//	C01 Rajesh  ₹2,000      cash           14 Mar 00:00  (the first moment of today)
//	C02 Sharma  ₹25,000     cheque         13 Mar 18:00  CHQ 004512
//	C02 Sharma  ₹1,234.56   UPI            13 Mar 23:59  UTR1002 (the last minute of yesterday)
//	C03 Mehta   ₹7,000      bank transfer  11 Mar 12:00  NEFT77 (imported)
//	C01 Rajesh  ₹99,999     UPI            20 Feb 10:00  UTR0999 (last month)
//
// Today: ₹17,000.50 in 3 payments from Rajesh (cash ₹7,000.50, UPI
// ₹10,000). Yesterday: ₹26,234.56 in 2 payments from Sharma. This week
// (9–14 Mar): ₹50,235.06 in 6 payments from 3 customers; by mode cheque
// ₹25,000, UPI ₹11,234.56, cash ₹7,000.50, bank transfer ₹7,000. This
// month: ₹50,235.06; last month: ₹99,999.
func KnownPayments(ctx context.Context, b PaymentBooks) error {
	loc := domain.DefaultLocation()
	at := func(day, hour, minute int, month time.Month) time.Time {
		return time.Date(2026, month, day, hour, minute, 0, 0, loc)
	}
	chat := []domain.Payment{
		{CustomerID: "C01", Amount: 1000000, Mode: domain.PayUPI, ReceivedAt: at(14, 9, 0, time.March), Reference: "UTR1001"},
		{CustomerID: "C01", Amount: 500050, Mode: domain.PayCOD, ReceivedAt: at(14, 8, 0, time.March)},
		{CustomerID: "C01", Amount: 200000, Mode: domain.PayCOD, ReceivedAt: at(14, 0, 0, time.March)},
		{CustomerID: "C02", Amount: 2500000, Mode: domain.PayCheque, ReceivedAt: at(13, 18, 0, time.March), Reference: "CHQ 004512"},
		{CustomerID: "C02", Amount: 123456, Mode: domain.PayUPI, ReceivedAt: at(13, 23, 59, time.March), Reference: "UTR1002"},
		{CustomerID: "C01", Amount: 9999900, Mode: domain.PayUPI, ReceivedAt: at(20, 10, 0, time.February), Reference: "UTR0999"},
	}
	if err := b.AddHistory(ctx, nil, chat); err != nil {
		return err
	}
	imported := []domain.Payment{
		{CustomerID: "C03", Amount: 700000, Mode: domain.PayBankTransfer, ReceivedAt: at(11, 12, 0, time.March), Reference: "NEFT77"},
	}
	_, err := b.ImportHistory(ctx, nil, imported)
	return err
}
