package webhook_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/munshi/munshi/webhook"
)

func TestParseInboundMediaTypes(t *testing.T) {
	const media = "https://api.twilio.com/2010-04-01/Accounts/AC123/Messages/MM1/Media/ME"
	f := form("SMm", "+919900000003", "")
	f.Set("NumMedia", "5")
	f.Set("MediaUrl0", media+"0")
	f.Set("MediaContentType0", "audio/ogg")
	f.Set("MediaUrl1", media+"1") // no type given
	f.Set("MediaUrl2", "")        // dropped, with its type
	f.Set("MediaContentType2", "image/png")
	f.Set("MediaUrl3", media+"3")
	f.Set("MediaContentType3", "image/"+strings.Repeat("x", 200)) // too long to be a type
	f.Set("MediaUrl4", media+strings.Repeat("4", 2100))           // too long to be Twilio's
	f.Set("MediaContentType4", "image/jpeg")
	in, err := webhook.ParseInbound(f)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{media + "0", media + "1", media + "3"}; !slices.Equal(in.MediaURLs, want) {
		t.Errorf("MediaURLs = %q, want %q", in.MediaURLs, want)
	}
	if want := []string{"audio/ogg", "", ""}; !slices.Equal(in.MediaTypes, want) {
		t.Errorf("MediaTypes = %q, want %q", in.MediaTypes, want)
	}

	f = form("SMt", "+919900000003", "hi")
	if in, err := webhook.ParseInbound(f); err != nil || in.MediaURLs != nil || in.MediaTypes != nil {
		t.Errorf("text message: %q %q %v", in.MediaURLs, in.MediaTypes, err)
	}
}
