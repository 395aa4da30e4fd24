// A reseller's customers (issue 34): the list and one customer (GET
// /customers, /customers/{id}), a new customer, block and activate, the
// customer's keys, hit logs (with the reseller's commission), transactions
// and transfers, money moved to or from the customer (POST
// /customers/{id}/transfers with an Idempotency-Key), the customers' balance
// requests, and the reseller's dashboard.
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { ME_KEY } from '../../auth/useMe';
import { useListQuery } from '../../lib/listQuery';
import type { ListParams } from '../../lib/listParams';
import { useFeatureMutation, type MutationConfig } from '../../lib/mutation';
import { balanceRequestKeys } from '../balanceRequests/api';
import { transactionKeys } from '../transactions/api';
import { useLooseList } from './loose';
import type { Customer, CustomerHit, NewCustomer, Transfer, TransferBody } from './types';
import type { Schemas } from '../../api/types';

const CUSTOMERS_PATH = '/api/v1/panel/customers';
const CUSTOMER_PATH = '/api/v1/panel/customers/{id}';
const CUSTOMER_KEYS_PATH = '/api/v1/panel/customers/{id}/api-keys';
const CUSTOMER_HITS_PATH = '/api/v1/panel/customers/{id}/hit-logs';
const CUSTOMER_TXNS_PATH = '/api/v1/panel/customers/{id}/transactions';
const CUSTOMER_TRANSFERS_PATH = '/api/v1/panel/customers/{id}/transfers';
const DASHBOARD_PATH = '/api/v1/panel/reseller/dashboard';
const COMMISSIONS_PATH = '/api/v1/panel/commissions';

export const customerKeys = {
  /** Every list of customers and everything under one. */
  all: [CUSTOMERS_PATH] as const,
  detail: (id: number) => [CUSTOMER_PATH, { id }] as const,
  /** The customer's keys, hits, transactions, transfers. */
  sub: (path: string, id: number) => [path, { id }] as const,
  dashboard: [DASHBOARD_PATH] as const,
  commissions: [COMMISSIONS_PATH] as const,
};

/** A page of the reseller's customers (status, search). */
export function useCustomers<F extends Record<string, string>>(list: ListParams<F>) {
  return useListQuery(CUSTOMERS_PATH, list);
}

export function useCustomer(id: number) {
  return useQuery({
    queryKey: customerKeys.detail(id),
    queryFn: () => call(api.GET(CUSTOMER_PATH, { params: { path: { id } } })),
  });
}

export function useCustomerKeys<F extends Record<string, string>>(id: number, list: ListParams<F>) {
  return useLooseList<Schemas['ApiKey'], F>(CUSTOMER_KEYS_PATH, { id }, list);
}

export function useCustomerHits<F extends Record<string, string>>(id: number, list: ListParams<F>) {
  return useLooseList<CustomerHit, F>(CUSTOMER_HITS_PATH, { id }, list);
}

export function useCustomerTransactions<F extends Record<string, string>>(id: number, list: ListParams<F>) {
  return useLooseList<Schemas['Transaction'], F>(CUSTOMER_TXNS_PATH, { id }, list);
}

export function useCustomerTransfers<F extends Record<string, string>>(id: number, list: ListParams<F>) {
  return useLooseList<Transfer, F>(CUSTOMER_TRANSFERS_PATH, { id }, list);
}

/** Creates a customer (active at once; without a password it gets the set-password mail). */
export function useCreateCustomer(config?: MutationConfig<Customer, NewCustomer>) {
  return useFeatureMutation({
    mutationFn: (body: NewCustomer) => call(api.POST(CUSTOMERS_PATH, { body })),
    onSuccess: (qc, c) => {
      qc.setQueryData(customerKeys.detail(c.id), c);
      void qc.invalidateQueries({ queryKey: customerKeys.all });
      void qc.invalidateQueries({ queryKey: customerKeys.dashboard });
    },
  }, config);
}

function statusChanged(qc: QueryClient, c: Customer) {
  qc.setQueryData(customerKeys.detail(c.id), c);
  void qc.invalidateQueries({ queryKey: customerKeys.all });
}

export function useBlockCustomer(config?: MutationConfig<Customer, Customer>) {
  return useFeatureMutation({
    mutationFn: (c: Customer) => call(api.POST('/api/v1/panel/customers/{id}/block', { params: { path: { id: c.id } } })),
    onSuccess: statusChanged,
  }, config);
}

export function useActivateCustomer(config?: MutationConfig<Customer, Customer>) {
  return useFeatureMutation({
    mutationFn: (c: Customer) => call(api.POST('/api/v1/panel/customers/{id}/activate', { params: { path: { id: c.id } } })),
    onSuccess: statusChanged,
  }, config);
}

export interface TransferVars extends TransferBody {
  /** One per submission (a retry of the same submission sends the same key). */
  idempotencyKey: string;
}

/** Moves money between the reseller and the customer; both balances refresh. */
export function useTransfer(customerId: number, config?: MutationConfig<Transfer, TransferVars>) {
  return useFeatureMutation({
    mutationFn: ({ amount, direction, idempotencyKey }: TransferVars) =>
      call(api.POST(CUSTOMER_TRANSFERS_PATH, {
        params: { path: { id: customerId }, header: { 'Idempotency-Key': idempotencyKey } },
        body: { amount, direction },
      })),
    onSuccess: (qc, t) => {
      if (t.customer_balance !== undefined) {
        qc.setQueryData<Customer>(customerKeys.detail(customerId), (c) => (c ? { ...c, balance: t.customer_balance! } : c));
      }
      void qc.invalidateQueries({ queryKey: customerKeys.all });
      void qc.invalidateQueries({ queryKey: [CUSTOMER_PATH] });
      for (const p of [CUSTOMER_TRANSFERS_PATH, CUSTOMER_TXNS_PATH]) void qc.invalidateQueries({ queryKey: [p] });
      void qc.invalidateQueries({ queryKey: transactionKeys.all });
      void qc.invalidateQueries({ queryKey: ME_KEY });
    },
  }, config);
}

/** After a reseller decides a customer's request (useDecideBalanceRequest): the customer's balance and the reseller's. */
export function invalidateAfterDecision(qc: QueryClient) {
  void qc.invalidateQueries({ queryKey: balanceRequestKeys.all });
  void qc.invalidateQueries({ queryKey: [CUSTOMER_PATH] });
  void qc.invalidateQueries({ queryKey: customerKeys.all });
  void qc.invalidateQueries({ queryKey: ME_KEY });
}

/** The reseller's totals and per-customer figures between two local days. */
export function useResellerDashboard(range: { from: string; to: string }) {
  return useQuery({
    queryKey: [...customerKeys.dashboard, range],
    queryFn: () => call(api.GET(DASHBOARD_PATH, { params: { query: range } })),
  });
}

/** The reseller's commission settlements (one per closed hour with commission). */
export function useCommissions<F extends Record<string, string>>(list: ListParams<F>) {
  return useListQuery(COMMISSIONS_PATH, list);
}
