module paygate

go 1.26.8

require (
	github.com/oklog/ulid/v2 v2.1.2
	github.com/shopspring/decimal v1.6.0
	golang.org/x/crypto v0.58.0
)
