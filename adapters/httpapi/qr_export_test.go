package httpapi

// QRPNG exposes the checkout's QR code encoder to the tests.
var QRPNG = qrPNG
