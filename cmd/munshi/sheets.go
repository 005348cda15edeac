package main

import (
	"context"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/intake"
	"github.com/munshi/munshi/internal/sheets"
)

// newSheetsClient connects to MUNSHI_SHEETS_ID, through SHEETS_API_URL
// when it is set.
func newSheetsClient(ctx context.Context, m *Main) (*sheets.Client, error) {
	c := m.Config
	return sheets.New(ctx, sheets.Config{SpreadsheetID: c.SheetsID, CredentialsFile: c.GoogleCredentials, APIURL: c.SheetsAPIURL})
}

// openSheets wires the Google Sheet when MUNSHI_SHEETS_ID is set: the
// order log's sender in the outbox and, with MUNSHI_SHEETS_SYNC, the pull
// of the Catalog and Customers tabs (scheduled by schedule, which has the
// catalog watcher reload at once after a pull took a tab).
func (m *Main) openSheets(ctx context.Context) error {
	if m.Config.SheetsID == "" {
		return nil
	}
	client, err := newSheetsClient(ctx, m)
	if err != nil {
		return err
	}
	m.Sheets = client
	owners := &sheets.Owners{Books: m.Store, Audit: m.Audit, Nudge: m.Dispatcher.Nudge, Logger: m.Logger}
	m.Dispatcher.Senders[domain.EffectSheets] = &sheets.OrderLog{Sheet: client, Location: m.location(), Logger: m.Logger, Owners: owners,
		Exclusive: m.Store.Exclusive}
	if m.Config.SheetsSync > 0 {
		m.SheetsSync = &sheets.Sync{Sheet: client, Owners: owners, Logger: m.Logger, Every: m.Config.SheetsSync,
			Intake: intake.Intake{Books: m.Store, Audit: m.Audit, Actor: "sheets"}}
	}
	return nil
}
