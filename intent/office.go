package intent

import (
	"bytes"
	"fmt"

	"github.com/munshi/munshi/internal/domain"
)

// The office model reads what no rule and no sure reading of the main
// model could: a message for the office said in words the handoff rules
// do not list ("Could your sales manager visit us this week?", "ਇਹ ਆਰਡਰ
// ਮੈਂ ਦਿੱਤਾ ਹੀ ਨਹੀਂ ਸੀ, ਬਿੱਲ ਕਿਉਂ ਭੇਜਿਆ?"). It is the main
// model's kind, trained on the training corpus and the handoff training
// messages (corpus/train-handoff.jsonl) together, and kept apart: taught
// in the main model, handing over took probability from every other
// intent and left more of the development splits' messages to the LLM
// than it read. Asked where the message would go to the LLM, and of the
// main model's orders and questions (overruled), it changes no other
// decision, and it only ever hands over: the office reads what the
// person wrote, nothing in the books changes.

// OfficeThreshold is what the office model's handoff needs to hand over.
// Settled on the development splits with the first 1,244 handoff
// training messages: of the messages every other tier left unread, it
// read 24 at 0.9 or more, 21 of them the office's; from 0.8, 4 more and
// 1 more wrong. With all 1,744 it reads 31 at 0.9, 28 of them the
// office's (the others a credit note asked after, a customer to be
// called, a joke about a mop).
const OfficeThreshold = 0.9

// trainedModel is a model trained in the background, or why it could not be.
type trainedModel struct {
	model *model
	err   error
}

// trainOffice trains the office model on exs and the handoff training
// messages.
func trainOffice(exs []Example, rd corpusReading) trainedModel {
	more, err := ReadExamples(bytes.NewReader(trainHandoffJSONL))
	if err != nil {
		return trainedModel{err: fmt.Errorf("intent: handoff training messages: %w", err)}
	}
	m, _ := fitModel(append(append([]Example(nil), exs...), more...), rd)
	return trainedModel{model: m}
}

// forOffice hands d over when the office model is sure its message is
// for the office.
func (r *Router) forOffice(shape []string, n Normalized, d *Decision) bool {
	var fbuf [256]feature
	var p [maxClasses]float64
	r.office.probabilities(extract(shape, n.Question, r.office.common, fbuf[:0]), p[:classes])
	top, second := topTwo(p[:classes])
	if domain.Intents[top] != domain.IntentHandoff || p[top] < OfficeThreshold || p[top]-p[second] < r.ambiguity {
		return false
	}
	// Who the rules know is not the office stays so: family, a bank or a
	// doctor, hands for the goods.
	if anyOf(shape, family) || notTheOffice(shape) || fetchesGoods(shape) {
		return false
	}
	d.Intent, d.Tier, d.Confidence, d.Reason = domain.IntentHandoff, TierModel, p[top], officeReason(shape)
	return true
}

// overruled hands d over instead of the main model's order, question or
// order's status when the office model is sure its message is for the
// office: "The consignment contained toilet cleaner bottles manufactured
// over two years ago. We will not accept these; please arrange a
// pickup." names goods, as an order does, and sends them back; "is hafte
// ek bhi order nahi diya maine, fir ye ORD-1071 kahan se aaya?" asks
// after an order the writer never placed. The main model's unknown is
// overruled only for a message that names goods, a customer or a figure
// of the books ("सेल्समैन ने जो भाव बोला था वो बिल में नहीं लगा"), or
// the business's people (ofTheBusiness; staffNamed: one named as the
// staff list has them): its surest readings of everyday messages the
// main model calls unknown name none of them ("Rome Italy ke mausam ke
// baare me mujhse baat kare"). Records are left as they are: a record
// the office model doubts is still the salesperson's to make.
func (r *Router) overruled(shape []string, n Normalized, staffNamed bool, d *Decision) {
	if d.Intent == domain.IntentOrder || IsQuestion(d.Intent) || d.Intent == domain.IntentOrderStatus || d.Intent == domain.IntentUnknown && (ofTheBooks(shape) || ofTheBusiness(shape, staffNamed)) {
		r.forOffice(shape, n, d)
	}
}

// fetchesGoods reports someone asked for beside goods, with no way of
// reaching them said: "koi aadmi bhejo maal uthane", "need someone to
// carry the cartons" want hands for the goods, as the rules read them
// (asksForPerson), not the office; "can somebody call me, the wrong soap
// came" wants the office.
func fetchesGoods(shape []string) bool {
	someone := anyOf(shape, someoneWords) || anyOf(shape, anyone) && anyOf(shape, personWords)
	return someone && anyOf(shape, goodsOnly) && !anyOf(shape, contactWords)
}

// officeReason is the office model's handoff as the rules name it: a
// person asked for when the message says how to reach them, else a
// dispute.
func officeReason(shape []string) string {
	if anyOf(shape, contactWords) || anyOf(shape, humanWords) {
		return "model: " + handoffAsked
	}
	return "model: " + handoffDisputed
}

// ofTheBooks reports a message that names goods, a customer, a figure of
// the books (figureWords: a rate, a bill, a balance, the hisaab) or money
// charged.
func ofTheBooks(shape []string) bool {
	return anyOf(shape, goodsOnly) || anyOf(shape, figureWords) || anyOf(shape, customerWords) || anyOf(shape, moneyNamed)
}

// moneyNamed name money asked or charged: "delivery wala 50 rupaye extra
// maang raha tha".
var moneyNamed = words("rupees extra charge")

// ofTheBusiness reports a message that names the business's own people,
// by their role or their name, or a person of it asked for (humanWords),
// or its papers: "tamaro salesman 3 divas thi aavyo j nathi", "…
// statement me 10000 ki jagah 1000 likha hai". "office" is not one of
// them: "office jaane keliye directions chahiye" is anyone's office.
func ofTheBusiness(shape []string, staffNamed bool) bool {
	return staffNamed || anyOf(shape, officeNames) || anyOf(shape, humanWords)
}

var officeNames = words("salesman salesmen सेल्समैन owner malik manager accountant munim accounts statement ledger")
