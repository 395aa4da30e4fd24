// Package brand is a reseller's brand (decisions part 18): its name, logo,
// support contacts and the host names it answers on. A request whose Host
// is one of those domains shows that brand and registers that reseller's
// customers; mail to a reseller's customers carries its brand name.
package brand
