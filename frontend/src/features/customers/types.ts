// The resellers' shapes (issue 34): short names for the generated OpenAPI
// schemas the reseller screens use.
import type { Schemas, User } from '../../api/types';

/** A reseller's customer: a user JSON with its reseller. */
export type Customer = User;

/** A customer's hit, with the reseller's commission. */
export type CustomerHit = Schemas['HitLog'];

export type Transfer = Schemas['Transfer'];
export type TransferBody = Schemas['TransferRequest'];
export type TransferDirection = TransferBody['direction'];
export type NewCustomer = Schemas['CreateCustomerRequest'];
export type ResellerDashboard = Schemas['ResellerDashboard'];
export type CommissionSettlement = Schemas['Commission'];
export type CustomerPrice = Schemas['CustomerPrice'];

export interface List<T> {
  data: T[];
  meta: { page?: number; per_page?: number; total: number; total_capped?: boolean; [k: string]: unknown };
}
