// Fixtures for the reseller screens' component tests (issue 34).
import { session } from '../../../auth/session';
import type { Customer, CustomerPrice } from '../../../features/customers/types';
import { admin } from '../../admin/test/fixtures';

export { stubApi, list, fill } from '../../admin/test/fixtures';

export const reseller: Customer = { ...admin, id: 3, name: 'Ravi Resale', email: 'ravi@resale.example', role: 'reseller', balance: '5000.00', plan: 'starter' };

export function customer(over: Partial<Customer> = {}): Customer {
  return {
    ...admin, id: 21, name: 'Meera Shah', email: 'meera@example.com', phone: '9811111111', role: 'user', status: 'active', plan: 'starter',
    balance: '250.00', total_spent: '12.50', api_key: null, parent_id: 3, ...over,
  };
}

export function price(over: Partial<CustomerPrice> = {}): CustomerPrice {
  return { service_id: 4, service_name: 'SMS', slug: 'sms', cost: '0.4000', price: null, effective_price: '0.5000', margin: '0.1000', source: 'list', list_price: '0.5000', below_list: false, ...over };
}

export function signInAsReseller() {
  session.signIn({ access_token: 'token-r', refresh_token: 'r', token_type: 'Bearer', expires_in: 900, user: reseller });
}
