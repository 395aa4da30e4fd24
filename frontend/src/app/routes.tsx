// THE ROUTE TABLE: every screen of the panel, each a lazy module in its own
// file (its own chunk). The navbar is built from this table. To build a
// screen, replace the body of its file; adding a screen that is not listed
// here is a change to this shared file (ask the lead).
import type { ComponentType } from 'react';
import {
  IconActivity, IconArrowsTransferUp, IconBuildingBank, IconBuildingStore, IconCash, IconChartBar, IconClipboardList, IconCreditCard, IconDeviceMobile, IconFileInvoice, IconFileSpreadsheet,
  IconBrush, IconGauge, IconGaugeFilled, IconKey, IconListDetails, IconPackages, IconReceipt, IconReceiptTax, IconReportMoney, IconServer, IconUser, IconUsers, IconWallet, IconWebhook,
  IconTag, IconUsersGroup,
  type Icon,
} from '@tabler/icons-react';
import type { Role } from '../api/types';

export interface Screen {
  /** Absolute path; `:id` segments are route parameters (useParams). */
  path: string;
  /** Document title and the default heading. */
  title: string;
  /**
   * Loads the screen's module (its own chunk). The router loads it before it
   * shows the route (React Router's route `lazy`), so a screen never flashes
   * a Suspense fallback (React holds a revealed fallback ~300 ms).
   */
  load: () => Promise<{ default: ComponentType }>;
  /** Who may open it. Omitted: every signed-in role. */
  roles?: Role[];
  /** Shown in the navbar, in table order, under its group. */
  nav?: { label: string; icon: Icon; group: 'Account' | 'Developers' | 'Money' | 'Admin' | 'Customers' };
}

const ALL: Role[] = ['admin', 'reseller', 'user'];
const ADMIN: Role[] = ['admin'];
const RESELLER: Role[] = ['reseller'];

/** Pages outside the signed-in shell. */
export const publicScreens: Screen[] = [
  { path: '/login', title: 'Sign in', load: () => import('../pages/auth/Login') },
  { path: '/register', title: 'Create an account', load: () => import('../pages/auth/Register') },
  { path: '/forgot-password', title: 'Forgot password', load: () => import('../pages/auth/ForgotPassword') },
  // Links mailed by the server: PUBLIC_BASE_URL/reset-password?token=…&email=…, /verify-email?token=…
  { path: '/reset-password', title: 'Reset password', load: () => import('../pages/auth/ResetPassword') },
  { path: '/verify-email', title: 'Verify email', load: () => import('../pages/auth/VerifyEmail') },
];

/** Signed-in screens, inside the shell (header + navbar). */
export const screens: Screen[] = [
  // Everyone (users and resellers; admins see them for their own account, or for all users where the API says so)
  { path: '/dashboard', title: 'Dashboard', roles: ALL, load: () => import('../pages/user/Dashboard'),
    nav: { label: 'Dashboard', icon: IconGauge, group: 'Account' } },
  { path: '/services', title: 'Services', roles: ALL, load: () => import('../pages/user/Services'),
    nav: { label: 'Services', icon: IconBuildingStore, group: 'Developers' } },
  { path: '/services/:id', title: 'Service', roles: ALL, load: () => import('../pages/user/ServiceDetail') },
  { path: '/api-keys', title: 'API keys', roles: ALL, load: () => import('../pages/user/ApiKeys'),
    nav: { label: 'API keys', icon: IconKey, group: 'Developers' } },
  { path: '/hit-logs', title: 'Hit logs', roles: ALL, load: () => import('../pages/user/HitLogs'),
    nav: { label: 'Hit logs', icon: IconActivity, group: 'Developers' } },
  { path: '/webhooks', title: 'Webhooks', roles: ALL, load: () => import('../pages/user/Webhooks'),
    nav: { label: 'Webhooks', icon: IconWebhook, group: 'Developers' } },
  { path: '/balance-requests', title: 'Add balance', roles: ALL, load: () => import('../pages/user/BalanceRequests'),
    nav: { label: 'Add balance', icon: IconWallet, group: 'Money' } },
  { path: '/transactions', title: 'Transactions', roles: ALL, load: () => import('../pages/user/Transactions'),
    nav: { label: 'Transactions', icon: IconReceipt, group: 'Money' } },
  { path: '/invoices', title: 'Invoices', roles: ALL, load: () => import('../pages/user/Invoices'),
    nav: { label: 'Invoices', icon: IconFileInvoice, group: 'Money' } },
  { path: '/statements', title: 'Statements', roles: ALL, load: () => import('../pages/user/Statements'),
    nav: { label: 'Statements', icon: IconReportMoney, group: 'Money' } },
  { path: '/payments', title: 'Payments', roles: ALL, load: () => import('../pages/user/Payments'),
    nav: { label: 'Payments', icon: IconCash, group: 'Money' } },
  { path: '/recharges', title: 'Recharges', roles: ALL, load: () => import('../pages/user/Recharges'),
    nav: { label: 'Recharges', icon: IconDeviceMobile, group: 'Money' } },
  { path: '/payouts', title: 'Payouts', roles: ALL, load: () => import('../pages/user/Payouts'),
    nav: { label: 'Payouts', icon: IconArrowsTransferUp, group: 'Money' } },
  { path: '/account-openings', title: 'Account openings', roles: ALL, load: () => import('../pages/user/AccountOpenings'),
    nav: { label: 'Account openings', icon: IconBuildingBank, group: 'Money' } },
  { path: '/plan', title: 'Plan and billing', roles: ALL, load: () => import('../pages/user/PlanBilling'),
    nav: { label: 'Plan and billing', icon: IconCreditCard, group: 'Account' } },
  { path: '/profile', title: 'Profile and sessions', roles: ALL, load: () => import('../pages/user/Profile'),
    nav: { label: 'Profile', icon: IconUser, group: 'Account' } },

  // Resellers: their customers, selling prices and brand (issue 34)
  { path: '/customers', title: 'Customers', roles: RESELLER, load: () => import('../pages/reseller/Customers'),
    nav: { label: 'Customers', icon: IconUsersGroup, group: 'Customers' } },
  { path: '/customers/:id', title: 'Customer', roles: RESELLER, load: () => import('../pages/reseller/CustomerDetail') },
  { path: '/prices', title: 'Prices', roles: RESELLER, load: () => import('../pages/reseller/Prices'),
    nav: { label: 'Prices', icon: IconTag, group: 'Customers' } },
  { path: '/brand', title: 'Brand', roles: RESELLER, load: () => import('../pages/reseller/Brand'),
    nav: { label: 'Brand', icon: IconBrush, group: 'Account' } },
  { path: '/billing-details', title: 'Billing and payment details', roles: RESELLER, load: () => import('../pages/reseller/BillingDetails'),
    nav: { label: 'Billing details', icon: IconReceiptTax, group: 'Account' } },

  // Admins
  { path: '/admin', title: 'Platform dashboard', roles: ADMIN, load: () => import('../pages/admin/Dashboard'),
    nav: { label: 'Platform', icon: IconChartBar, group: 'Admin' } },
  { path: '/admin/users', title: 'Users', roles: ADMIN, load: () => import('../pages/admin/Users'),
    nav: { label: 'Users', icon: IconUsers, group: 'Admin' } },
  { path: '/admin/users/:id', title: 'User', roles: ADMIN, load: () => import('../pages/admin/UserDetail') },
  { path: '/admin/services', title: 'Manage services', roles: ADMIN, load: () => import('../pages/admin/Services'),
    nav: { label: 'Services', icon: IconServer, group: 'Admin' } },
  { path: '/admin/services/new', title: 'New service', roles: ADMIN, load: () => import('../pages/admin/ServiceEdit') },
  { path: '/admin/services/:id', title: 'Edit service', roles: ADMIN, load: () => import('../pages/admin/ServiceEdit') },
  { path: '/admin/plans', title: 'Plans', roles: ADMIN, load: () => import('../pages/admin/Plans'),
    nav: { label: 'Plans', icon: IconPackages, group: 'Admin' } },
  { path: '/admin/billing-settings', title: 'Billing settings', roles: ADMIN, load: () => import('../pages/admin/BillingSettings'),
    nav: { label: 'Billing settings', icon: IconReceiptTax, group: 'Admin' } },
  { path: '/admin/balance-requests', title: 'Balance requests', roles: ADMIN, load: () => import('../pages/admin/BalanceRequests'),
    nav: { label: 'Balance requests', icon: IconClipboardList, group: 'Admin' } },
  { path: '/admin/reconciliation', title: 'Reconciliation', roles: ADMIN, load: () => import('../pages/admin/Reconciliation'),
    nav: { label: 'Reconciliation', icon: IconFileSpreadsheet, group: 'Admin' } },
  { path: '/admin/payout-limits', title: 'Payout limits', roles: ADMIN, load: () => import('../pages/admin/PayoutLimits'),
    nav: { label: 'Payout limits', icon: IconGaugeFilled, group: 'Admin' } },
  { path: '/admin/audit-log', title: 'Audit log', roles: ADMIN, load: () => import('../pages/admin/AuditLog'),
    nav: { label: 'Audit log', icon: IconListDetails, group: 'Admin' } },
];

export const NAV_GROUPS = ['Admin', 'Account', 'Customers', 'Developers', 'Money'] as const;

/** The navbar entries a role sees, grouped in NAV_GROUPS order. */
export function navFor(role: Role): { group: string; items: Screen[] }[] {
  return NAV_GROUPS.map((group) => ({
    group,
    items: screens.filter((s) => s.nav?.group === group && (!s.roles || s.roles.includes(role))),
  })).filter((g) => g.items.length > 0);
}

