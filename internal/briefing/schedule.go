package briefing

import (
	"context"
	"time"

	"github.com/munshi/munshi/internal/scheduler"
)

// Run sends yesterday's digest: the scheduled job (MUNSHI_DIGEST_AT).
func (s *Service) Run(ctx context.Context) {
	s.sendYesterday(ctx, "schedule")
}

func (s *Service) sendYesterday(ctx context.Context, why string) {
	sent, err := s.Send(ctx, s.Yesterday())
	log := s.logger().With("date", sent.Date, "why", why, "briefs", sent.Briefs, "templates", sent.Templates,
		"email_only", sent.EmailOnly, "mails", sent.Mails, "already", sent.Already)
	switch {
	case err != nil:
		log.Error("briefing: the digest was not sent to everyone: "+sent.Went(), "err", err)
	case sent.Total() == 0 && sent.Already == 0:
		log.Warn("briefing: " + sent.Went())
	case sent.Total() == 0:
		log.Info("briefing: " + sent.Went())
	default:
		log.Info("briefing: digest sent: " + sent.Went())
	}
}

// CatchUp sends yesterday's digest at start when spec (read in the time
// zone) came due earlier today while Munshi was down, if it is still
// before latest (a time of day); after it, it logs why it does not.
// Deliveries already claimed are not sent again, so a CatchUp after a
// digest that did go out sends nothing.
func (s *Service) CatchUp(ctx context.Context, spec string, latest time.Duration) error {
	now := s.now().In(s.loc())
	midnight := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, s.loc())
	due, err := scheduler.NextDue(spec, s.loc(), midnight.Add(-time.Second))
	if err != nil {
		return err
	}
	if due.IsZero() || due.After(now) || !s.day(due).Equal(midnight) {
		return nil // not due yet today: the schedule sends it
	}
	date := s.Yesterday().Format(time.DateOnly)
	h, m := int(latest/time.Hour), int(latest%time.Hour/time.Minute)
	deadline := time.Date(now.Year(), now.Month(), now.Day(), h, m, 0, 0, s.loc())
	if !now.Before(deadline) {
		n, err := s.Sends.Deliveries(ctx, date)
		switch {
		case err != nil:
			return err
		case n > 0:
			s.logger().Info("briefing: the digest went out before this start", "date", date, "deliveries", n)
		default:
			s.logger().Warn("briefing: the digest was missed while Munshi was down and it is past MUNSHI_DIGEST_LATEST: not sending it now (munshi digest --send sends it)",
				"date", date, "was_due", due.Format(time.DateTime), "latest", deadline.Format("15:04"))
		}
		return nil
	}
	s.sendYesterday(ctx, "catch-up at start")
	return nil
}
