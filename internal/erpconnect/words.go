package erpconnect

import (
	"sort"
	"strings"
	"unicode"
)

// vocab turns the words and abbreviations vendors put in table and column
// names into one canonical word (or a few): ItmCd and ItemCode both read
// "item code", CrLmt reads "credit limit", SONo "sales order number".
var vocab = map[string][]string{}

func init() {
	add := func(canon string, spellings ...string) {
		words := strings.Fields(canon)
		for _, s := range spellings {
			vocab[s] = words
		}
	}
	add("item", "item", "items", "itm", "itms", "itemcd")
	add("product", "product", "products", "prdct", "prduct")
	add("prod", "prod", "prd") // product as a table, production as a quantity
	add("sku", "sku", "skus")
	add("material", "material", "materials", "matl", "mat")
	add("catalog", "catalog", "catalogue")
	add("code", "code", "cd", "codes", "cod")
	add("name", "name", "nm", "nam", "names", "nme")
	add("description", "description", "desc", "descr", "dscr", "particulars")
	add("quantity", "quantity", "qty", "qnty", "qtty", "qt", "quant")
	add("rate", "rate", "rt", "rates")
	add("price", "price", "prc", "prices")
	add("mrp", "mrp")
	add("cost", "cost", "landed")
	add("amount", "amount", "amt", "amnt", "amout", "amts")
	add("value", "value", "val", "vlu")
	add("total", "total", "tot", "ttl")
	add("net", "net")
	add("gross", "gross", "grs")
	add("customer", "customer", "customers", "cust", "cst", "party", "parties", "pty",
		"debtor", "debtors", "client", "clients", "buyer", "buyers", "dealer", "dealers", "retailer", "retailers")
	add("acc", "acc") // an account, or an accepted quantity: AccCd, AccQty
	add("accepted", "accepted", "accpt", "accp", "acpt")
	add("rejected", "rejected", "rej", "reject", "rejct")
	add("alternate", "alternate", "alt", "alter")
	add("cancelled", "cancelled", "canceled", "cancel", "canc", "cncl", "cnl", "void", "voided", "deleted", "isdeleted")
	add("active", "active", "actv", "isactive", "enabled")
	add("flag", "flag", "yn", "flg")
	add("conversion", "conversion", "conv", "convfact", "factor", "fact")
	add("account", "account", "accounts", "ac", "acct", "accnt", "ledger", "ledgers", "led", "ldgr")
	add("phone", "phone", "ph", "phn", "phno", "mob", "mobile", "mobl", "mobileno", "contact", "tel",
		"telephone", "cell", "cellno", "whatsapp", "wa", "wapp")
	add("credit", "credit", "cr", "crd")
	add("debit", "debit", "dr")
	add("limit", "limit", "lmt", "lim", "lmit")
	add("credit limit", "crlmt", "crlimit", "creditlimit", "crlim")
	add("balance", "balance", "bal", "blnc", "balnc")
	add("outstanding", "outstanding", "os", "outstd", "outst", "ostd")
	add("due", "due", "dues")
	add("receivable", "receivable", "receivables", "recv", "rcvbl")
	add("date", "date", "dt", "dte", "dated", "dat")
	add("time", "time", "on", "at", "tm", "ts", "timestamp", "stamp", "datetime")
	add("voucher", "voucher", "vouchers", "vch", "vchr", "vou", "vouch")
	add("bill", "bill", "bills", "inv", "invoice", "invoices", "invc", "invno")
	add("tax", "tax", "taxes", "gst", "vat", "igst", "cgst", "sgst")
	add("percent", "percent", "pct", "per", "perc", "percentage", "prcnt")
	add("unit", "unit", "units", "uom", "um", "uqc")
	add("closing", "closing", "cl", "clos", "clsg", "clo")
	add("opening", "opening", "op", "opn", "opng")
	add("wip", "wip", "inprocess", "inproc", "wrkinprog")
	add("process", "process", "proc", "processing")
	add("production", "production", "prdn", "prodn", "mfg", "manufacturing")
	add("receipt", "receipt", "receipts", "rcpt", "rcpts", "rct", "recpt", "rcp", "reciept", "receit")
	add("purchase", "purchase", "purchases", "pur", "purch", "purc", "prch")
	add("grn", "grn", "grns", "mrn")
	add("goods", "goods")
	add("received", "received", "recd", "rcvd", "rec", "recvd")
	add("inward", "inward", "inwards", "inw")
	add("sales order", "so")
	add("purchase order", "po")
	add("sales", "sales", "sale", "sal", "sls", "sell", "selling")
	add("order", "order", "orders", "ord", "ordr")
	add("stock", "stock", "stk", "stocks", "inventory", "invent")
	add("modified", "modified", "modify", "mod", "modi", "upd", "updated", "update", "updt", "changed", "chg",
		"change", "edited", "edit", "lastmodified", "lastupdated", "altered")
	add("created", "created", "create", "crt", "entry", "entered", "added")
	add("last", "last", "lst")
	add("company", "company", "companies", "comp", "cmp", "cmpy", "co", "firm", "compny")
	add("branch", "branch", "br", "brnch")
	add("tenant", "tenant", "org", "organisation", "organization")
	add("supplier", "supplier", "suppliers", "sup", "supp", "supl", "vendor", "vendors", "vend", "vndr",
		"creditor", "creditors")
	add("hsn", "hsn", "sac")
	add("gstin", "gstin", "gstno", "tin", "pan")
	add("mode", "mode", "md", "modes")
	add("payment", "payment", "payments", "pay", "pmt", "paymt", "pymt")
	add("type", "type", "typ", "kind")
	add("cheque", "cheque", "chq", "check", "chk", "cheq")
	add("reference", "reference", "ref", "refno", "refs")
	add("utr", "utr")
	add("status", "status", "stat", "sts", "stts")
	add("state", "state")
	add("segment", "segment", "seg", "segm")
	add("category", "category", "cat", "categ", "catg")
	add("group", "group", "grp", "groups")
	add("class", "class", "cls")
	add("grade", "grade")
	add("alias", "alias", "aliases", "aka", "nick", "nickname")
	add("short", "short", "shrt")
	add("header", "header", "hdr", "head", "hd")
	add("detail", "detail", "details", "dtl", "dtls", "det")
	add("line", "line", "lines", "ln")
	add("master", "master", "mst", "mast", "mstr", "masters")
	add("transaction", "transaction", "transactions", "txn", "trans", "tran", "trn")
	add("register", "register", "reg", "regd")
	add("log", "log", "logs", "audit", "history", "hist", "tmp", "temp", "bak", "backup", "trace", "debug",
		"session", "sessions", "error", "errors", "sync", "event", "events")
	add("godown", "godown", "godowns", "gdn", "warehouse", "wh", "location", "loc", "store", "stores")
	add("hand", "hand", "onhand")
	add("available", "available", "avail", "avl", "ready", "free")
	add("minimum", "minimum", "min", "reorder", "rol", "max", "maximum")
	add("discount", "discount", "disc", "dis")
	add("address", "address", "addr", "add", "city", "town", "area", "pin", "pincode", "zip", "district")
	add("email", "email", "mail")
	add("batch", "batch", "lot")
	add("expiry", "expiry", "exp")
	add("remarks", "remarks", "remark", "rem", "narration", "narr", "note", "notes", "comment", "comments", "memo")
	add("user", "user", "users", "usr", "operator", "by")
	add("message", "message", "msg", "messages")
	add("level", "level", "lvl")
	add("days", "days", "day")
	add("salesman", "salesman", "sman", "smn", "rep", "salesperson", "agent", "executive")
	add("route", "route", "beat")
	add("pending", "pending", "pend", "pndg")
	add("open", "open")
	add("fax", "fax")
	add("office", "office", "landline", "off", "res", "residence")
	add("barcode", "barcode", "ean", "upc")
	add("part", "part")
	add("collection", "collection", "collections", "coll")
	add("money", "money")
	add("cash", "cash")
	add("bank", "bank", "bnk")
	add("dispatch", "dispatch", "desp", "disp", "delivery", "dlv", "challan", "dc", "shipment")
	add("return", "return", "returns", "ret")
	add("id", "id", "key", "pk", "uid", "guid")
	add("serial", "serial", "sr", "sno", "srno", "slno", "sl", "seq")
	add("number", "number", "no", "num", "nbr", "nos", "numb")
	add("main", "main", "dbo", "public")
	add("in", "in")
	add("of", "of")
}

// neutral words cost nothing when a name has them besides what a field
// looks for: "ItemMaster.ItemCode" is as much an item code as "ItemCode".
var neutral = map[string]bool{
	"master": true, "main": true, "of": true, "in": true, "detail": true, "header": true,
	"transaction": true, "register": true,
}

// words splits a table or column name into canonical words: camel case,
// underscores, spaces and digits all separate words; known abbreviations
// become their word; a run of known words written together ("itemcode",
// "taxper") is split; a misspelling one letter off a known word of six
// letters or more ("Suppler") reads as that word.
func words(name string) []string {
	var out []string
	for _, piece := range splitName(name) {
		for _, w := range canon(piece) {
			if w == "hand" && len(out) > 0 && out[len(out)-1] == "time" {
				out = out[:len(out)-1] // QtyOnHand: "on" is not a time here
			}
			if w == "process" && len(out) > 0 && out[len(out)-1] == "in" {
				out, w = out[:len(out)-1], "wip" // QtyInProcess
			}
			out = append(out, w)
		}
	}
	return out
}

// splitName cuts a name at separators, case changes and letter/digit
// changes, and lowercases the pieces.
func splitName(name string) []string {
	var pieces []string
	rs := []rune(name)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			pieces = append(pieces, strings.ToLower(string(rs[start:end])))
		}
		start = -1
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		p := rs[i-1]
		switch {
		case unicode.IsLower(p) && unicode.IsUpper(r):
			flush(i)
		case unicode.IsDigit(p) != unicode.IsDigit(r) && !unicode.IsMark(r):
			flush(i)
		case unicode.IsUpper(p) && unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
			flush(i)
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(rs))
	return pieces
}

func canon(piece string) []string {
	if w, ok := vocab[piece]; ok {
		return w
	}
	if isDigits(piece) {
		return nil
	}
	if seg := segment(piece); seg != nil {
		return seg
	}
	if w := nearWord(piece); w != nil {
		return w
	}
	return []string{piece}
}

// segment splits a run of known spellings written together ("partyname",
// "taxper", "balamt") into their words, fewest pieces first; nil when the
// run is not made of known spellings of two letters or more.
func segment(s string) []string {
	if len(s) < 4 || len(s) > 40 {
		return nil
	}
	n := len(s)
	best := make([][]string, n+1) // best[i]: fewest spellings making s[:i]
	ok := make([]bool, n+1)
	ok[0] = true
	for i := 1; i <= n; i++ {
		for j := 0; j <= i-2; j++ {
			if !ok[j] {
				continue
			}
			if _, known := vocab[s[j:i]]; !known {
				continue
			}
			cand := append(append([]string(nil), best[j]...), s[j:i])
			if !ok[i] || len(cand) < len(best[i]) {
				best[i], ok[i] = cand, true
			}
		}
	}
	if !ok[n] || len(best[n]) < 2 {
		return nil
	}
	var out []string
	for _, sp := range best[n] {
		out = append(out, vocab[sp]...)
	}
	return out
}

// nearWord reads a long unknown word one edit away from a known spelling
// of six letters or more as that spelling.
func nearWord(s string) []string {
	if len([]rune(s)) < 6 {
		return nil
	}
	var hits []string
	for sp := range vocab {
		if len(sp) >= 6 && oneEdit(s, sp) {
			hits = append(hits, sp)
		}
	}
	if len(hits) == 0 {
		return nil
	}
	sort.Strings(hits)
	return vocab[hits[0]]
}

// oneEdit reports whether a and b are one insertion, deletion or
// substitution apart.
func oneEdit(a, b string) bool {
	if a == b {
		return false
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(b)-len(a) > 1 {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return a[i+1:] == b[i+1:]
	}
	return a[i:] == b[i+1:]
}

func isDigits(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return s != ""
}

// hint is a phrase a name may carry for a field or entity, with how much it
// says: "item code" says sku outright, "code" less.
type hint struct {
	words []string
	w     float64
}

func hints(spec ...any) []hint {
	var hs []hint
	for i := 0; i+1 < len(spec); i += 2 {
		hs = append(hs, hint{strings.Fields(spec[i].(string)), spec[i+1].(float64)})
	}
	return hs
}

// nameMatch scores a column's words (and its table's, which count a little)
// against a field's hints: the best hint's weight times the share of its
// words present, less for each other word the column name carries, much
// less for a word that says it is something else. It returns the score and
// the hint that gave it.
func nameMatch(col, table []string, hs []hint, neg []string) (float64, string) {
	inCol := set(col)
	inTable := set(table)
	for _, n := range neg {
		if inCol[n] {
			return 0, "name says " + n
		}
	}
	best, why := 0.0, ""
	for _, h := range hs {
		got, own := 0.0, 0
		want := set(h.words)
		for _, w := range h.words {
			switch {
			case inCol[w]:
				got++
				own++
			case inTable[w]:
				got += 0.6
			}
		}
		if own == 0 {
			continue // the table's name alone says nothing of a column
		}
		extra := 0
		for _, w := range col {
			if !want[w] && !neutral[w] {
				extra++
			}
		}
		s := h.w*got/float64(len(h.words)) - 0.12*float64(min(extra, 3))
		if s > best {
			best, why = s, strings.Join(h.words, " ")
		}
	}
	return clamp01(best), why
}

// tableMatch scores a table's name against an entity's hints; a word that
// says it is something else (supplier for customers, log for anything)
// counts against it.
func tableMatch(table []string, hs []hint, neg []string) (float64, string) {
	in := set(table)
	pen := 0.0
	for _, n := range neg {
		if in[n] {
			pen += 0.5
		}
	}
	best, why := 0.0, ""
	for _, h := range hs {
		got := 0
		for _, w := range h.words {
			if in[w] {
				got++
			}
		}
		if got == 0 {
			continue
		}
		s := h.w * float64(got) / float64(len(h.words))
		if s > best {
			best, why = s, strings.Join(h.words, " ")
		}
	}
	return best - pen, why
}

func set(ws []string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

func clamp01(x float64) float64 {
	return max(0, min(1, x))
}
