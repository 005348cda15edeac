package intent

import (
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestTroubleHandsOver: a problem with the goods, a bill or the service
// that no narrower rule reads goes to the office rather than the LLM:
// goods missing, short of the bill, spilt, spoilt on opening or not
// working, money not shown, a shop losing sales. A delivery
// or goods received that reports a shortage or a breakage, and a problem
// with a shopping site or the family, do not.
func TestTroubleHandsOver(t *testing.T) {
	r := demoRouter(t)
	wantHandoffs(t, r, map[string]string{
		"delivery boy maal gate pe chhod ke chala gaya, 1 carton gayab hai ab":                 "dispute",
		"Got only 1 carton of soap, invoice says 3":                                            "dispute",
		"Billed for 5 bags of detergent, none were delivered":                                  "dispute",
		"10 कार्टन का बिल बना है, आए सिर्फ 7":                                                  "dispute",
		"kal ke maal me 6 bottle phooti nikli bhaiya":                                          "dispute",
		"handwash ke pump kaam nahi kar rahe, pura 1 carton ka yehi haal hai":                  "dispute",
		"We paid your delivery man 4200 cash, no receipt given and it is not in the statement": "dispute",
		"fourth time this month the delivery came late. we are losing sales because of this":   "dispute",
	})
	notRoutedAs(t, r, domain.IntentHandoff,
		"1783 pahuncha - sab maal sahi, koi bottle tooti nahi",
		"rajesh kirana ka maal de ke aa raha hoon, 1 bag surf kam tha",
		"बिल १५१३ ग्राहक को सौंपा, दो दर्जन पोछा कम",
		"phenyl ki 55 peti aayi, do phooti hui",
		"7028 done at City Hospital, 4 cartons air freshener returned as wrong size",
		"zepto wala galat saman de gaya, sabun ki jagah shampoo",
		"papa ka phone kaam nahi kar raha",
	)
}
