// Package domain holds the business's vocabulary shared by every Munshi
// package: products, customers, users and their roles, money in paise,
// intents, inbound and outbound messages, side effects as data (Effect,
// with a constructor per kind that encodes its payload), and the error
// codes the edges map to replies and HTTP statuses.
//
// It imports nothing from Munshi and no vendor package; adapters under
// internal/ translate their systems' types into these.
package domain
