// The resellers' shapes (issue 34) as the brief's API contract gives them,
// until api/openapi.yaml has them (then these become Schemas[...] aliases).
import type { Schemas, User } from '../../api/types';

/** A reseller's customer: a user JSON with its reseller. */
export type Customer = User & { parent_id?: number | null; reseller_name?: string | null };

export type CustomerHit = Schemas['HitLog'] & { commission?: string };

export type TransferDirection = 'to_customer' | 'from_customer';

export interface Transfer {
  id: number;
  customer_id: number;
  direction: TransferDirection;
  amount: string;
  created_at: string;
  reseller_balance?: string;
  customer_balance?: string;
}

export interface TransferBody {
  amount: string;
  direction: TransferDirection;
}

export interface NewCustomer {
  name: string;
  email: string;
  phone: string;
  password?: string;
}

export interface ResellerDashboard {
  from: string;
  to: string;
  totals: {
    customers: number;
    calls: number;
    spend: string;
    cost: string;
    commission_accrued: string;
    commission_settled: string;
  };
  customers: { customer_id: number; name: string; calls: number; spend: string; cost: string; commission: string }[];
}

export interface CommissionSettlement {
  id: number;
  hour_start: string;
  hits: number;
  amount: string;
  created_at: string;
}

export interface CustomerPrice {
  service_id: number;
  service_name: string;
  slug: string;
  cost: string;
  price: string | null;
  effective_price: string;
  margin: string;
  source: 'price' | 'markup' | 'list';
}

export type CustomerBalanceRequest = Schemas['BalanceRequest'] & { user_name?: string };

export interface List<T> {
  data: T[];
  meta: { page?: number; per_page?: number; total: number; total_capped?: boolean; [k: string]: unknown };
}
