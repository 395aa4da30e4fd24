// Package client is a Go client of the Paygate API, generated from the
// contract (api/openapi.yaml) by oapi-codegen v2.8.2 (types and client) into
// client.gen.go, plus VerifyWebhook, which checks an event delivery's
// Standard Webhooks signature. Money is a decimal string in every type (the
// contract's pattern), never a float: parse it with a decimal library.
//
// Regenerate after changing api/openapi.yaml:
//
//	go generate ./client
//
// TestGeneratedClientIsCurrent fails when client.gen.go is not what the
// generator makes of the document now. ./example is a runnable program
// that signs in, creates a key, calls a service, creates a payment and
// verifies a webhook signature.
package client

//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2 -config oapi-codegen.yaml ../api/openapi.yaml
