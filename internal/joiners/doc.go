// Package joiners tells a zero-width joiner or non-joiner that does its
// work from one that hides in a text. Indian scripts choose a conjunct's
// form with them ("क्‍ष") and emoji sequences are built with them, so one
// between two visible characters belongs to the text; anywhere else it is
// an invisible character like any other.
package joiners
