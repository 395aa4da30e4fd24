package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/go-playground/validator/v10"
	"github.com/labstack/echo/v4"
	"github.com/shopspring/decimal"

	"paygate/core/metering"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

var (
	ErrBadJSON  = errs.E(errs.BadRequest, "invalid_json", "Request body must be valid JSON")
	errTooLarge = errs.E(errs.TooLarge, "body_too_large", "Request body too large")
)

// Kit is what the areas' handlers share from the server as a whole: the
// request body's limit and validator, the logger, and the CSV exports'
// stall timeout.
type Kit struct {
	log         *slog.Logger
	validate    *validator.Validate
	maxBody     int64
	exportStall time.Duration
}

// NewKit makes the shared part of the handlers: bodies of at most maxBody
// bytes; CSV exports end after exportStall of a client reading nothing.
func NewKit(log *slog.Logger, maxBody int64, exportStall time.Duration) *Kit {
	return &Kit{log: log, validate: newValidator(), maxBody: maxBody, exportStall: exportStall}
}

func newValidator() *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	v.RegisterTagNameFunc(func(f reflect.StructField) string {
		name := strings.SplitN(f.Tag.Get("json"), ",", 2)[0]
		if name == "-" {
			return ""
		}
		return name
	})
	return v
}

// ReadBody reads at most the configured body size.
func (k *Kit) ReadBody(c echo.Context) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(c.Request().Body, k.maxBody+1))
	if err != nil {
		return nil, errs.E(errs.BadRequest, "unreadable_body", "Request body could not be read").Wrap(err)
	}
	if int64(len(b)) > k.maxBody {
		return nil, errTooLarge
	}
	return b, nil
}

// Bind decodes a JSON object strictly (unknown fields are refused, so a
// misspelt field is not silently ignored) and validates its tags.
func (k *Kit) Bind(c echo.Context, dst any) error {
	b, err := k.ReadBody(c)
	if err != nil {
		return err
	}
	if metering.JSONBlank(b) {
		b = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return errs.Validation(map[string][]string{te.Field: {"must be a " + JSONType(te.Type.Kind())}})
		}
		if strings.HasPrefix(err.Error(), "json: unknown field ") {
			field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			return errs.Validation(map[string][]string{field: {"is not a known field"}})
		}
		return ErrBadJSON.Wrap(err)
	}
	// Only blanks may follow the value: dec.More() let `{…}}` and `{…}]`
	// through (found by FuzzBind).
	if !metering.JSONBlank(b[dec.InputOffset():]) {
		return ErrBadJSON
	}
	return k.Check(dst)
}

// Check runs the validate tags and turns failures into per-field messages.
func (k *Kit) Check(dst any) error {
	err := k.validate.Struct(dst)
	if err == nil {
		return nil
	}
	var ves validator.ValidationErrors
	if !errors.As(err, &ves) {
		return err
	}
	fe := errs.FieldErrors{}
	for _, ve := range ves {
		fe.Add(ve.Field(), fieldMessage(ve))
	}
	return fe.Err()
}

func fieldMessage(ve validator.FieldError) string {
	switch ve.Tag() {
	case "required":
		return "is required"
	case "email":
		return "must be a valid email address"
	case "max":
		return "must be at most " + ve.Param() + " characters"
	case "min":
		return "must be at least " + ve.Param()
	case "oneof":
		return "must be one of " + strings.ReplaceAll(ve.Param(), " ", ", ")
	case "gte", "lte":
		return "must be " + map[string]string{"gte": "at least ", "lte": "at most "}[ve.Tag()] + ve.Param()
	case "url", "http_url":
		return "must be an http(s) URL"
	}
	return "is invalid"
}

func JSONType(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "string"
	case reflect.Int, reflect.Int64, reflect.Uint64, reflect.Uint, reflect.Int32:
		return "whole number"
	case reflect.Bool:
		return "boolean"
	case reflect.Map, reflect.Struct:
		return "JSON object"
	case reflect.Slice:
		return "JSON array"
	}
	return "value of another type"
}

// IDParam reads a positive numeric path id; anything else is "not found".
func IDParam(c echo.Context, name string) (uint64, error) {
	id, err := strconv.ParseUint(c.Param(name), 10, 64)
	if err != nil || id == 0 {
		return 0, errs.ErrNotFound
	}
	return id, nil
}

// MoneyField parses an optional money string with at most places decimals.
func MoneyField(fe errs.FieldErrors, field string, v *string, places int) *decimal.Decimal {
	if v == nil {
		return nil
	}
	d, ok := inr.Parse(*v, places)
	if !ok {
		fe.Add(field, "must be a decimal string with at most "+strconv.Itoa(places)+" decimals")
		return nil
	}
	return &d
}
