package httpapi_test

import (
	"bytes"
	"encoding/base64"
	"html"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"paygate/adapters/httpapi"
)

// decodeQR reads a QR code PNG with zbar's zbarimg, as a payer's phone
// reads the screen. Without zbar (make test installs it with
// scripts/ensure-zbar.sh) the test skips, except in CI, where it fails.
func decodeQR(t *testing.T, img []byte) string {
	t.Helper()
	bin, err := exec.LookPath("zbarimg")
	if err != nil {
		msg := "zbarimg not installed (scripts/ensure-zbar.sh installs zbar-tools)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	f := filepath.Join(t.TempDir(), "qr.png")
	if err := os.WriteFile(f, img, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "--raw", "-q", f).Output()
	if err != nil {
		t.Fatalf("zbarimg: %v", err)
	}
	return strings.TrimRight(string(out), "\n")
}

func TestQRPNGDecodesToTheText(t *testing.T) {
	for _, intent := range []string{
		"upi://pay?pa=platform@okhdfc&pn=Paygate%20Demo&am=100000.00&cu=INR&tr=pay_01J9Z8X4K3M2N1P0Q9R8S7T6V5",
		"upi://pay?pa=a@b&am=1.00&cu=INR",
	} {
		img, err := httpapi.QRPNG(intent, 256)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(img))
		if err != nil || cfg.Width != cfg.Height || cfg.Width > 256 || cfg.Width < 150 {
			t.Fatalf("image %dx%d, %v", cfg.Width, cfg.Height, err)
		}
		if got := decodeQR(t, img); got != intent {
			t.Errorf("decoded %q, want %q", got, intent)
		}
	}
}

// The checkout page's QR code reads as the page's UPI intent.
func TestCheckoutQRReadsAsTheIntent(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.useUPIDirect()
		c := e.newCustomer("user", "starter", "0.00")
		id := e.createPayment(c, "1500.00")
		page := e.page("GET", "/"+id, nil)
		m := regexp.MustCompile(`src="data:image/png;base64,([^"]+)"`).FindStringSubmatch(page.raw)
		intent := regexp.MustCompile(`href="(upi://pay\?[^"]+)"`).FindStringSubmatch(page.raw)
		if page.status != 200 || m == nil || intent == nil {
			t.Fatalf("page %d without a QR image or intent: %s", page.status, page.raw)
		}
		img, err := base64.StdEncoding.DecodeString(html.UnescapeString(m[1])) // html/template writes + as &#43;
		if err != nil {
			t.Fatal(err)
		}
		want := html.UnescapeString(intent[1])
		if got := decodeQR(t, img); got != want || !strings.Contains(got, "tr="+id) {
			t.Fatalf("QR reads %q, want %q", got, want)
		}
	})
}
