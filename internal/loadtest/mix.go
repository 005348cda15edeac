package loadtest

// Roster is who writes: phones (+E164) that are users in the books, by
// role.
type Roster struct {
	Owners, Sales, Accounts []string
}

// Mix is what each kind of sender says.
type Mix struct {
	// Greetings open every sender's script (none when empty).
	Greetings []string
	// Questions are the owners'; each owner asks PerOwner of them
	// (default 2), starting at its own place in the list.
	Questions []string
	PerOwner  int
	// AccountsQuestions are the accounts team's; each asks one.
	AccountsQuestions []string
	// Orders are the sales staff's: each places one, then says Confirm.
	Orders  []string
	Confirm string
}

// DemoMix fits the demo distributor (internal/demo): questions every
// owner may ask, and orders that pass every rule of its catalog and
// customers (above the ₹25,000 minimum, a payment mode the customer
// takes, no credit asked) while the stock lasts.
var DemoMix = Mix{
	Greetings: []string{"namaste", "hi", "good morning", "hello ji"},
	Questions: []string{
		"GC ka stock kitna hai", "who owes us money?", "aaj ki sales kitni hai", "phenyl ka stock kitna hai",
		"Mehta ji ka outstanding", "last 7 days sales", "pending orders dikhao", "this month sales",
	},
	AccountsQuestions: []string{"राजेश का बकाया कितना है", "Sharma ka outstanding"},
	Orders: []string{
		"10 carton glass cleaner aur 10 pack phenyl for Mehta ji, cheque",
		"Sharma ji ke liye 12 carton GC, cheque",
		"Rajesh ke liye 15 carton GC, UPI",
	},
	Confirm: "ok",
}

// Senders writes every person's script: owners greet and ask PerOwner
// questions, sales staff greet, place an order and confirm it, the
// accounts team greets and asks. Each sender starts at its own place in
// the lists, so that the traffic mixes.
func (m Mix) Senders(r Roster) []Sender {
	per := m.PerOwner
	if per <= 0 {
		per = 2
	}
	var out []Sender
	add := func(phone string, k int, rest ...string) {
		var msgs []string
		if len(m.Greetings) > 0 {
			msgs = append(msgs, m.Greetings[k%len(m.Greetings)])
		}
		out = append(out, Sender{Phone: phone, Messages: append(msgs, rest...)})
	}
	for k, phone := range r.Owners {
		var qs []string
		for i := range per {
			if len(m.Questions) > 0 {
				qs = append(qs, m.Questions[(k*per+i)%len(m.Questions)])
			}
		}
		add(phone, k, qs...)
	}
	for k, phone := range r.Sales {
		if len(m.Orders) > 0 {
			add(phone, k, m.Orders[k%len(m.Orders)], m.Confirm)
		} else {
			add(phone, k)
		}
	}
	for k, phone := range r.Accounts {
		if len(m.AccountsQuestions) > 0 {
			add(phone, k, m.AccountsQuestions[k%len(m.AccountsQuestions)])
		} else {
			add(phone, k)
		}
	}
	return out
}
