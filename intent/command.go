package intent

import "github.com/munshi/munshi/internal/domain"

// replyMeanings are the intents of the short replies people send Munshi,
// and how a refusal to use one as a name describes them.
var replyMeanings = map[domain.Intent]string{
	domain.IntentConfirm: "confirm",
	domain.IntentCancel:  "cancel",
	domain.IntentHelp:    "ask for help",
}

// CommandMeaning says what people mean when they send text alone as a
// reply: "confirm", "cancel" or "ask for help"; "" when text is not such a
// reply. It reads text exactly as a message is read — normalised, then
// through the same rules and the same confirm and cancel vocabulary — so
// "OK", "okk", "👍", "haan ji", "ठीक है", "nahi", "stop" and "help" are
// replies, and "Good Day" or "Sahi Traders" are not.
//
// A product or customer named with such a word would swallow the replies
// it stands for, so the importer refuses those names.
func CommandMeaning(text string) string {
	n := Normalize(text)
	if len(n.Tokens) == 0 {
		return ""
	}
	var buf [48]string
	shape := shapeOf(n, buf[:0])
	if in, _, ok := matchRules(shape, n); ok {
		return replyMeanings[in]
	}
	switch {
	case anyOf(shape, confirmWords) && allIn(shape, confirmWords):
		return replyMeanings[domain.IntentConfirm]
	case anyOf(shape, cancelWords) && allIn(shape, cancelWords):
		return replyMeanings[domain.IntentCancel]
	}
	return ""
}

// CommandWord reports whether word, sent alone, is a reply that confirms,
// cancels or asks for help (see CommandMeaning).
func CommandWord(word string) bool { return CommandMeaning(word) != "" }
