// Package storetest is the suite every store.Store backend must pass: the
// catalog, customers and users, history, drafts and commits, the inbound
// record, the outbox, the audit log, retention and the owners' questions,
// each on a fresh store with a clock the suite moves.
//
// It also states, as tests of concurrent commits, the business rules the
// SQLite store keeps by having a single writer: stock that fits one order
// is committed once, a customer's credit room is never spent twice, a
// second "ok" commits nothing, one draft move wins a race, and order
// numbers taken at once are each taken once, in turn. Commits go
// through orders.Service, so the judgement inside them is the orders
// package's own.
//
// And it states whose books they are once an ERP syncs into them: a
// figure the ERP owns is its value plus what the chat recorded since, a
// chat payment and the ERP's same payment count once, what the ERP never
// shows is flagged once, and a sync batch is all or nothing with its state.
//
// It is for tests only, and must not know which backend it runs against.
package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/clocktest"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
)

// Open opens a fresh, empty store with opts (the suite's clock); each
// subtest calls it once. The backend closes it when t ends.
type Open func(t *testing.T, opts ...store.Option) store.Store

// Run runs the suite against the backend open opens.
func Run(t *testing.T, open Open) {
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, store.Store, *Clock)
	}{
		{"ProductsRoundTripAndUpsert", testProducts},
		{"UpsertProductsIsAllOrNothing", testProductsAllOrNothing},
		{"CustomersRoundTripAndUpsert", testCustomers},
		{"Users", testUsers},
		{"UserByPhoneUnknown", testUnknownUser},
		{"IsEmpty", testIsEmpty},
		{"CatalogReadInKeyOrder", testKeyOrder},
		{"EmptyCatalogReads", testEmptyCatalog},
		{"CatalogVersionMoves", testCatalogVersion},
		{"SyncKeepsStockAndDues", testSyncKeepsStockAndDues},
		{"AddHistory", testAddHistory},
		{"AddHistoryRollsBack", testAddHistoryRollsBack},
		{"ImportHistoryIsIdempotent", testImportHistory},
		{"ImportHistoryReplacesWhatChanged", testImportHistoryReplaces},
		{"ImportHistoryNeverOverwritesMunshi", testImportHistoryClashes},
		{"ImportedHistoryInReports", testImportedHistoryInReports},
		{"DuesOverALongHistory", testDuesOverALongHistory},

		{"Drafts", testDrafts},
		{"OrderNumbersRunWithoutGaps", testOrderNumbers},
		{"DraftReferenceNamesItsOrder", testDraftNamesItsOrder},
		{"HistoryKeepsDraftsApart", testHistoryKeepsDraftsApart},
		{"Snapshot", testSnapshot},
		{"CommitWritesTheOrderAndItsEffects", testCommit},
		{"CommitRefusedByTheJudgeWritesNothing", testCommitJudged},
		{"CommitLogsTheOrderAsWritten", testCommitLogsTheOrder},
		{"SecondOkCommitsNothing", testSecondOk},
		{"ConcurrentCommitsNeverOversell", testStockRace},
		{"ConcurrentCreditCommitsKeepTheLimit", testCreditRace},
		{"ConcurrentOksCommitOnce", testOkRace},
		{"MoveDraftRaceHasOneWinner", testMoveRace},
		{"DeliverShortRepricesAndMovesStock", testDeliverShort},
		{"DeliverOnlyKeepsEveryLine", testDeliverOnly},
		{"CancelPlacedOrderReversesDues", testCancelPlaced},
		{"PaymentLowersDuesOncePerReference", testPayment},
		{"ConcurrentOksRecordAPaymentOnce", testPaymentOksRace},
		{"AnAdvanceNeedingAnOwnerIsApprovedOnce", testAdvanceApprovedOnce},
		{"ConcurrentDuplicateReferencesRecordOnce", testDuplicateReferenceRace},
		{"PaymentReferenceOncePerCustomer", testReferenceOncePerCustomer},
		{"GoodsReceivedAndFromProduction", testReceipt},
		{"OkIsAboutWhatWasShownLast", testOkIsAboutWhatWasShownLast},
		{"OrdersToDeliverOfACustomer", testOrdersToDeliver},

		{"WhoseBooksPaymentCountsOnce", testWhoseBooksPaymentOnce},
		{"WhoseBooksUnsettledFlaggedOnce", testWhoseBooksFlaggedOnce},
		{"WhoseBooksStockPlusProvisional", testWhoseBooksStock},
		{"WhoseBooksMadeFromWIP", testWhoseBooksMadeFromWIP},
		{"WhoseBooksSaleCountsOnce", testWhoseBooksSaleCountsOnce},
		{"WhoseBooksCreditOrderSettledByBill", testWhoseBooksCreditOrder},
		{"WhoseBooksDeactivateKeepsHistory", testWhoseBooksDeactivate},
		{"WhoseBooksBadRowWritesNothing", testWhoseBooksBadRow},
		{"WhoseBooksStateAndFailures", testWhoseBooksState},

		{"ClaimAndSavedReply", testClaim},
		{"ClaimConcurrent", testClaimConcurrent},
		{"ClaimLeaseTakeover", testClaimTakeover},
		{"ClaimRefusesAnotherSender", testClaimOtherSender},
		{"UnknownSenderKeepsNoText", testUnknownSenderText},
		{"ReleaseAndDiscard", testReleaseAndDiscard},
		{"ClaimAbandoned", testClaimAbandoned},
		{"AbandonedKeepsItsFiles", testAbandonedKeepsItsFiles},
		{"WroteSince", testWroteSince},
		{"ShortenedBodyKeepsItsLength", testShortenedBody},
		{"FirstRefusalToday", testFirstRefusal},
		{"Sweeps", testSweeps},

		{"OutboxLease", testOutboxLease},
		{"OutboxSentRetryGiveUp", testOutboxOutcomes},
		{"EnqueueIsAllOrNothing", testEnqueueAllOrNothing},
		{"OutboxKeepsAnyKind", testAnyKind},
		{"OutboxConcurrentClaimDue", testConcurrentClaimDue},
		{"OutboxHeldKeepsAttemptsAndReleases", testHeld},
		{"MarkFailedEnqueuesNoticesOnce", testMarkFailed},
		{"RecordDeliveryStatus", testDeliveryStatus},
		{"Audit", testAudit},
		{"ExclusiveRunsOneAtATime", testExclusive},

		{"DigestDeliveryClaimedOnce", testDigestClaim},
		{"DigestConcurrentClaimsHaveOneWinner", testDigestClaimRace},
		{"DigestHeldBriefReleasedOnce", testDigestHoldAndRelease},
		{"DigestEditionKeptOnce", testDigestEditionKeptOnce},
		{"DigestConcurrentEditionsKeepOne", testDigestEditionRace},
		{"HandoffOneOpenPerPerson", testHandoffOneOpen},
		{"HandoffConcurrentOpensHaveOneWinner", testHandoffOpenRace},
		{"HandoffMessagesAndOfficeReplies", testHandoffMessages},
		{"HandoffRemindedOnce", testHandoffRemindedOnce},
		{"LastInbound", testLastInbound},
		{"SentMessageByProviderID", testSentMessage},

		{"ReportStockOf", testStockOf},
		{"ReportStockCatalogAndOuts", testStockCatalog},
		{"ReportDues", testDues},
		{"ReportOpenOrders", testOpenOrders},
		{"ReportOrderStatuses", testOrderStatuses},
		{"ReportSalesSummary", testSalesSummary},
		{"ReportSaleLines", testSaleLines},
		{"ReportMatch", testMatch},
		{"ReportCommittedFollowsTheBooks", testCommittedFollows},
		{"ReportStockNeeds", testStockNeeds},
		{"ReportPaymentsReceived", testPaymentsReceived},

		{"DigestCustomerDays", testDigestCustomerDays},
		{"DigestStandings", testDigestStandings},
		{"DigestPayments", testDigestPayments},
		{"DigestStock", testDigestStock},
		{"DigestWaiting", testDigestWaiting},
		{"DigestSaleLines", testDigestSaleLines},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := clocktest.At(T0)
			tc.fn(t, open(t, store.WithClock(clock.Now)), clock)
		})
	}
}

// T0 is where the suite's clock starts: 14 March 2026, 15:00 in Kolkata.
var T0 = time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)

// Clock is the suite's clock, which the store reads and tests move.
type Clock = clocktest.Clock

var ctx = context.Background()

func products() []domain.Product {
	return []domain.Product{
		{
			SKU: "GC500", Name: "Glass Cleaner 500ml",
			Aliases:   []string{"GC", "colin", "ग्लास क्लीनर"},
			Unit:      "bottle",
			PackSizes: []domain.PackSize{{Name: "carton", Units: 24}, {Name: "box", Units: 6}},
			Price:     9200, GSTPercent: 1800, StockReady: 2400, StockWIP: 480,
		},
		{
			SKU: "BR01", Name: "Floor Broom",
			Aliases:   []string{"broom", "jhadu", "झाड़ू"},
			Unit:      "piece",
			PackSizes: []domain.PackSize{{Name: "dozen", Units: 12}},
			Price:     8000, GSTPercent: 1200, StockReady: 600,
		},
		{
			SKU: "X1", Name: "Loose item, no packs 🧽", Unit: "piece", Price: 0, GSTPercent: 250,
		},
	}
}

func customers() []domain.Customer {
	return []domain.Customer{
		{
			ID: "C01", Name: "Rajesh Kirana Store", Aliases: []string{"Rajesh", "rajesh bhai", "राजेश"},
			Phone: "+919810000001", Segment: "kirana", CreditLimit: 10000000, Outstanding: 3500000,
			PaymentModes: []domain.PaymentMode{domain.PayCOD, domain.PayCredit, domain.PayUPI},
		},
		{
			ID: "C02", Name: "Sharma General Store", Aliases: []string{"Sharma"},
			Phone: "+919810000002", Segment: "general_store", CreditLimit: 15000000, Outstanding: -50050,
			PaymentModes: []domain.PaymentMode{domain.PayCheque, domain.PayBankTransfer},
		},
		{ID: "C03", Name: "Walk-in", PaymentModes: []domain.PaymentMode{domain.PayCOD}},
	}
}

// The people of the suite's books.
const (
	owner    = "+919900000001"
	accounts = "+919900000002"
	ravi     = "+919900000003"
	sunil    = "+919900000004"
)

func users() []domain.User {
	return []domain.User{
		{Phone: owner, Name: "Vikram Singh", Role: domain.RoleOwner},
		{Phone: accounts, Name: "Priya Nair", Role: domain.RoleAccounts},
		{Phone: ravi, Name: "Ravi Kumar", Role: domain.RoleSales},
		{Phone: sunil, Name: "Sunil Yadav", Role: domain.RoleSales},
	}
}

// seed writes the suite's catalog, customers and users.
func seed(t *testing.T, s store.Store) {
	t.Helper()
	if err := s.UpsertProducts(ctx, products()); err != nil {
		t.Fatal(err)
	}
	if err := s.UpsertCustomers(ctx, customers()); err != nil {
		t.Fatal(err)
	}
	if err := s.UpsertUsers(ctx, users()); err != nil {
		t.Fatal(err)
	}
}
