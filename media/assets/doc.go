// Package assets serves the static files that Munshi's interactive chart
// pages load: a pinned copy of Apache ECharts and its licence, embedded in
// the binary so that a chart page never reaches for an outside host.
//
// Handler answers GET and HEAD for /assets/{file}. Every file name carries
// the ECharts version, so responses are cached for a year as immutable; an
// ETag (from the sha256 of the bytes sent) answers revalidation, and clients
// that accept gzip get the compressed copy (a third of the size, which
// matters on a phone). Anything else under /assets/ is 404.
//
// It must not import other Munshi packages: reports/chart imports it for
// the script's file name, and cmd/munshi mounts the handler.
//
// README.md beside this file records where the files came from, their
// version and their sha256; a test keeps it true.
package assets
