package sqlbooks

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/munshi/munshi/internal/briefing"
)

// KeepEdition keeps k as the edition of its date, stamped with the
// store's clock, unless one is kept already; it returns the one kept.
func (s *Store) KeepEdition(ctx context.Context, k briefing.Kept) (briefing.Kept, error) {
	owner, err := json.Marshal(figures(k.OwnerFigures))
	if err != nil {
		return briefing.Kept{}, fmt.Errorf("sqlbooks: keep the digest of %s: %w", k.Date, err)
	}
	accounts, err := json.Marshal(figures(k.AccountsFigures))
	if err != nil {
		return briefing.Kept{}, fmt.Errorf("sqlbooks: keep the digest of %s: %w", k.Date, err)
	}
	var kept briefing.Kept
	err = s.inTx(ctx, func(tx *dbTx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO digest_editions (digest_date, headline, owner_text,
			accounts_text, owner_figures, accounts_figures, kept_at) VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT DO NOTHING`,
			k.Date, k.Headline, k.Owner, k.Accounts, string(owner), string(accounts), formatTime(s.Now())); err != nil {
			return err
		}
		kept, err = scanEdition(tx.QueryRowContext(ctx, editionQuery, k.Date).Scan)
		return err
	})
	if err != nil {
		return briefing.Kept{}, fmt.Errorf("sqlbooks: keep the digest of %s: %w", k.Date, err)
	}
	return kept, nil
}

// KeptEdition is the edition kept for date.
func (s *Store) KeptEdition(ctx context.Context, date string) (briefing.Kept, bool, error) {
	k, err := scanEdition(s.read.QueryRowContext(ctx, editionQuery, date).Scan)
	if errors.Is(err, sql.ErrNoRows) {
		return briefing.Kept{}, false, nil
	} else if err != nil {
		return briefing.Kept{}, false, fmt.Errorf("sqlbooks: the digest kept for %s: %w", date, err)
	}
	return k, true, nil
}

const editionQuery = `SELECT digest_date, headline, owner_text, accounts_text, owner_figures,
	accounts_figures, kept_at FROM digest_editions WHERE digest_date = ?`

func scanEdition(scan func(...any) error) (briefing.Kept, error) {
	var k briefing.Kept
	var owner, accounts, at string
	if err := scan(&k.Date, &k.Headline, &k.Owner, &k.Accounts, &owner, &accounts, &at); err != nil {
		return k, err
	}
	if err := json.Unmarshal([]byte(owner), &k.OwnerFigures); err != nil {
		return k, fmt.Errorf("owner figures: %w", err)
	}
	if err := json.Unmarshal([]byte(accounts), &k.AccountsFigures); err != nil {
		return k, fmt.Errorf("accounts figures: %w", err)
	}
	k.KeptAt = parseTime(at)
	return k, nil
}

// figures is fs, never null in JSON.
func figures(fs []briefing.Figure) []briefing.Figure {
	if fs == nil {
		return []briefing.Figure{}
	}
	return fs
}
