// Package frontend embeds the built single-page panel so the server binary
// serves it at /.
package frontend

import "embed"

// Dist holds dist/, the built assets (index.html and what it loads).
//
//go:embed all:dist
var Dist embed.FS
