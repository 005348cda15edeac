package briefing

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/outbox"
)

// OutsideWindow is Twilio's error code for a free-form message to someone
// who has not written in 24 hours.
const OutsideWindow = "63016"

// Undelivered hears of every outbox attempt (compose it into the
// dispatcher's Recorder): a digest brief refused with 63016 falls back as
// one known to be outside the window would.
func (s *Service) Undelivered(ctx context.Context, a outbox.Attempt) {
	if a.Outcome == outbox.Failed && a.Code == OutsideWindow {
		s.fallBack(ctx, a.Message)
	}
}

// DeliveryFailed hears of a status callback (compose it beside the one
// that records it): Twilio reports 63016 this way too, after taking the
// message.
func (s *Service) DeliveryFailed(ctx context.Context, messageSID, status, errorCode string) {
	if errorCode != OutsideWindow || (status != "failed" && status != "undelivered") {
		return
	}
	m, ok, err := s.Sends.SentMessage(ctx, messageSID)
	if err != nil {
		s.logger().Error("briefing: the refused message was not found", "sid", messageSID, "err", err)
		return
	}
	if ok {
		s.fallBack(ctx, m)
	}
}

// fallBack holds a refused brief for its recipient's next message and
// sends the template in its place, or, without one, leaves them the email.
// Other messages, and templates themselves, are not the digest's to redo.
func (s *Service) fallBack(ctx context.Context, m outbox.Message) {
	date, ok := strings.CutPrefix(m.About, aboutPrefix)
	if !ok || m.Kind != domain.EffectWhatsApp {
		return
	}
	var out domain.Outbound
	if json.Unmarshal(m.Payload, &out) != nil || out.ContentSID != "" {
		return
	}
	day, err := time.ParseInLocation(time.DateOnly, date, s.loc())
	if err != nil {
		return
	}
	d := Delivery{Date: date, Recipient: m.To, Channel: ChannelWhatsApp}
	held := s.brief(d, out.Body)
	log := s.logger().With("date", date, "to", m.To)
	if s.TemplateSID == "" {
		if ok, err := s.Sends.HoldDelivery(ctx, d, held); err != nil {
			log.Error("briefing: the refused brief was not held", "err", err)
		} else if ok {
			log.Warn("briefing: WhatsApp refused the brief (outside the 24-hour window) and there is no MUNSHI_DIGEST_TEMPLATE_SID: the digest goes by email only; the brief waits for their next message")
			s.mu.Lock()
			s.emailOnly++
			s.mu.Unlock()
		}
		return
	}
	headline, err := s.headline(ctx, day)
	if err != nil {
		log.Error("briefing: no template sent for the refused brief", "err", err)
		return
	}
	if ok, err := s.Sends.HoldDelivery(ctx, d, held, s.template(d, headline)); err != nil {
		log.Error("briefing: the refused brief was not held", "err", err)
	} else if ok {
		log.Info("briefing: WhatsApp refused the brief (outside the 24-hour window): the template goes instead; the brief waits for their next message")
		s.nudge()
	}
}

// headline is the headline of the edition kept for day, the one its
// briefs carried; composed again only for a day with none kept.
func (s *Service) headline(ctx context.Context, day time.Time) (string, error) {
	kept, ok, err := s.Sends.KeptEdition(ctx, day.Format(time.DateOnly))
	if err != nil || ok {
		return kept.Headline, err
	}
	ed, err := s.Editions.Edition(ctx, day)
	return ed.Headline, err
}
