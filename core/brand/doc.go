// Package brand is a reseller's brand (decisions "Resellers: brand"): its name, logo,
// support contacts and the host names it answers on. A request whose Host
// is one of those domains shows that brand and registers that reseller's
// customers; mail to a reseller's customers carries its brand name.
package brand
