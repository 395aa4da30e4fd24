// Package web is what the HTTP handlers of every area share: the strict
// JSON bind and its validation (Kit), the error body, list and pagination
// helpers, CSV exports, the request's signed-in caller and id, the role
// gates, the HTML pages' headers and small value helpers. It holds no
// route and no handler: routes.go in package httpapi wires each route to
// an area's handler.
package web
