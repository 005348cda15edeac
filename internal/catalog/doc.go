// Package catalog keeps what reads messages in step with the books: it
// builds the intent router and the order parser from the catalog and the
// customers, and, while Munshi serves, rebuilds both when an import changes
// them and swaps them in under the messages being answered.
//
// It imports intent and orders, whose readers it builds, and reaches the
// books through the narrow Books interface it declares. It must not import
// a vendor adapter (the LLM tier comes in as an intent.Classifier), the
// store's engines or cmd.
package catalog
