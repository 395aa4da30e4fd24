package accounts_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"paygate/core/accounts"
	"paygate/core/accounts/audit"
	"paygate/core/accounts/session"
	"paygate/core/accounts/user"
)

// The link of an unconfirmed customer (a reseller chose its email) is also
// its owner's answer to the reseller: the invite or stay keeps it, a reset
// link detaches it; each is audited with the account as actor. A confirmed
// customer's reset changes nothing of the relation.
func TestResetPasswordOfAnUnconfirmedCustomer(t *testing.T) {
	ctx := context.Background()
	confirmed := accountsNow.Add(-24 * time.Hour)
	for _, tc := range []struct {
		name       string
		token      string
		made       time.Duration // before now
		stay       bool
		status     user.Status
		verified   *time.Time
		wantErr    string
		wantParent bool
		wantStatus user.Status
		wantAction string // "" for no entry
	}{
		{"the invite confirms and activates", "pi_x", time.Hour, false, user.StatusPending, nil, "", true, user.StatusActive, audit.CustomerConfirm},
		{"the invite lasts 72 hours", "pi_x", 71 * time.Hour, false, user.StatusPending, nil, "", true, user.StatusActive, audit.CustomerConfirm},
		{"an expired invite changes nothing", "pi_x", 73 * time.Hour, false, user.StatusPending, nil, "invalid_reset_token", true, user.StatusPending, ""},
		{"a reset link detaches it, pending for an admin", "pr_x", time.Minute, false, user.StatusPending, nil, "", false, user.StatusPending, audit.CustomerDetach},
		{"a reset link of an active one detaches it", "pr_x", time.Minute, false, user.StatusActive, nil, "", false, user.StatusActive, audit.CustomerDetach},
		{"stay keeps the reseller, pending for its approval", "pr_x", time.Minute, true, user.StatusPending, nil, "", true, user.StatusPending, audit.CustomerConfirm},
		{"a reset link lasts 60 minutes", "pr_x", 61 * time.Minute, false, user.StatusPending, nil, "invalid_reset_token", true, user.StatusPending, ""},
		{"a confirmed customer stays", "pr_x", time.Minute, false, user.StatusActive, &confirmed, "", true, user.StatusActive, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newAccounts(t)
			rid := uint64(4)
			f.db.Put(user.User{ID: 4, Name: "Ravi Resale", Email: "ravi@example.com", Phone: "9876500004", Role: user.RoleReseller,
				Status: user.StatusActive, Plan: user.PlanStarter})
			f.db.Put(user.User{ID: 5, ParentID: &rid, Name: "Asha", Email: "asha@example.com", Phone: "9876543210", PasswordHash: "$2a$04$x",
				Role: user.RoleUser, Status: tc.status, Plan: user.PlanStarter, EmailVerifiedAt: tc.verified})
			f.db.Put(user.ResetToken{Email: "asha@example.com", TokenHash: session.Hash(tc.token), CreatedAt: accountsNow.Add(-tc.made)})
			err := f.panel.ResetPassword(ctx, "asha@example.com", tc.token, "owner-password-1", tc.stay)
			if code(err) != tc.wantErr {
				t.Fatalf("err %v, want %q", err, tc.wantErr)
			}
			got := f.db.User(5)
			if (got.ParentID != nil) != tc.wantParent || got.Status != tc.wantStatus {
				t.Fatalf("parent %v status %s; want parent %v, status %s", got.ParentID, got.Status, tc.wantParent, tc.wantStatus)
			}
			if tc.wantErr == "" && (got.EmailVerifiedAt == nil || !f.pw.Check(&got, "owner-password-1")) {
				t.Fatalf("not confirmed: %+v", got)
			}
			if activated := tc.status != user.StatusActive && got.Status == user.StatusActive; activated != (got.APIKey != nil && got.WebhookSecret != nil) {
				t.Fatalf("activated %v, key %v, secret %v", activated, got.APIKey, got.WebhookSecret)
			}
			entries := f.db.AuditEntries()
			if tc.wantAction == "" {
				if len(entries) != 0 {
					t.Fatalf("audit %+v", entries)
				}
				return
			}
			if len(entries) != 1 || entries[0].Action != tc.wantAction || entries[0].ActorID != 5 || *entries[0].TargetID != 5 {
				t.Fatalf("audit %+v", entries)
			}
			var before, after map[string]any
			_ = json.Unmarshal(entries[0].Before, &before)
			_ = json.Unmarshal(entries[0].After, &after)
			if before["parent_id"] != float64(4) || (after["parent_id"] == nil) == tc.wantParent {
				t.Fatalf("before %v after %v", before, after)
			}
		})
	}
}

// An admin promoting a customer ends its reseller relation, audited in the
// same write; creating an admin or a reseller with a parent is refused.
func TestPromotingACustomerDetachesIt(t *testing.T) {
	for _, role := range []user.Role{user.RoleAdmin, user.RoleReseller} {
		w := newAuditWorld(t)
		rid := uint64(4)
		w.db.Put(user.User{ID: 4, Role: user.RoleReseller, Status: user.StatusActive, Plan: user.PlanStarter, Email: "r@example.com", Phone: "9000000004"})
		w.db.Put(user.User{ID: 42, ParentID: &rid, Name: "Asha", Email: "asha@example.com", Phone: "9000000042", Role: user.RoleUser,
			Status: user.StatusActive, Plan: user.PlanStarter})
		got, err := w.panel.PatchUser(w.ctx, w.admin, 42, accounts.UserPatch{Role: &role})
		if err != nil {
			t.Fatal(err)
		}
		if stored := w.db.User(42); got.ParentID != nil || stored.ParentID != nil || stored.Role != role {
			t.Fatalf("%s: answered parent %v, stored %+v", role, got.ParentID, stored)
		}
		entries := w.db.AuditEntries()
		var before, after map[string]any
		_ = json.Unmarshal(entries[0].Before, &before)
		_ = json.Unmarshal(entries[0].After, &after)
		if len(entries) != 1 || entries[0].Action != audit.UserUpdate || before["parent_id"] != float64(4) || after["parent_id"] != nil ||
			after["role"] != string(role) {
			t.Fatalf("%s: audit %+v: before %v after %v", role, entries, before, after)
		}
	}
}
