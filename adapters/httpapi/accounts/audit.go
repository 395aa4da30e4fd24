package accounts

import (
	"encoding/json"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/accounts/audit"
	"paygate/core/platform/directory"
	"paygate/core/platform/errs"
)

type auditResponse struct {
	ID         uint64          `json:"id"`
	ActorID    uint64          `json:"actor_id"`
	Action     string          `json:"action"`
	TargetType string          `json:"target_type"`
	TargetID   *uint64         `json:"target_id"`
	Before     json.RawMessage `json:"before"`
	After      json.RawMessage `json:"after"`
	IPAddress  string          `json:"ip_address"`
	RequestID  string          `json:"request_id"`
	CreatedAt  *time.Time      `json:"created_at"`
	// Names (web/names.go): the admin's, and the target's when it is a user or
	// a service; absent when unknown.
	ActorName   *string `json:"actor_name,omitempty"`
	ActorEmail  *string `json:"actor_email,omitempty"`
	TargetName  *string `json:"target_name,omitempty"`
	TargetEmail *string `json:"target_email,omitempty"`
}

func toAuditResponse(e *audit.Entry) auditResponse {
	return auditResponse{
		ID: e.ID, ActorID: e.ActorID, Action: e.Action, TargetType: e.TargetType, TargetID: e.TargetID,
		Before: orNull(e.Before), After: orNull(e.After),
		IPAddress: e.IPAddress, RequestID: e.RequestID, CreatedAt: web.TimePtr(e.CreatedAt),
	}
}

func orNull(m json.RawMessage) json.RawMessage {
	if len(m) == 0 {
		return json.RawMessage("null")
	}
	return m
}

func (h *Handler) ListAudit(c echo.Context) error {
	fe := errs.FieldErrors{}
	p, pp := web.Page(c, fe)
	loc := h.app.History.Location()
	f := audit.Filter{
		ActorID: web.UintParam(c, fe, "actor_id"), Action: c.QueryParam("action"),
		TargetType: c.QueryParam("target_type"), TargetID: web.UintParam(c, fe, "target_id"),
		From: web.TimeParam(c, fe, "from", loc, false), To: web.TimeParam(c, fe, "to", loc, true), Page: p, PerPage: pp,
	}
	if len(f.Action) > 64 {
		fe.Add("action", "must be at most 64 characters")
	}
	if len(f.TargetType) > 32 {
		fe.Add("target_type", "must be at most 32 characters")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	ctx := c.Request().Context()
	rows, total, err := h.app.AuditLog.ListAudit(ctx, web.Caller(c), f)
	if err != nil {
		return err
	}
	items := web.MapSlice(rows, toAuditResponse)
	var ids directory.IDs
	for _, e := range items {
		ids.Users = append(ids.Users, e.ActorID)
		if e.TargetID != nil && e.TargetType == audit.TargetUser {
			ids.Users = append(ids.Users, *e.TargetID)
		} else if e.TargetID != nil && e.TargetType == audit.TargetService {
			ids.Services = append(ids.Services, *e.TargetID)
		}
	}
	n, err := h.app.History.Names(ctx, web.Caller(c), ids)
	if err != nil {
		return err
	}
	for i := range items {
		e := &items[i]
		e.ActorName, e.ActorEmail = web.UserName(n, e.ActorID), web.UserEmail(n, e.ActorID)
		switch {
		case e.TargetID != nil && e.TargetType == audit.TargetUser:
			e.TargetName, e.TargetEmail = web.UserName(n, *e.TargetID), web.UserEmail(n, *e.TargetID)
		case e.TargetID != nil && e.TargetType == audit.TargetService:
			e.TargetName = web.StrPtr(n.Services[*e.TargetID].Name)
		}
	}
	return web.WriteList(c, items, p, pp, total)
}
