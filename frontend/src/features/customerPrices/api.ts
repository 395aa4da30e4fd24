// A reseller's selling prices (issue 34): every active service with the
// reseller's own cost, its selling price (set or not), the effective price
// its customers pay, the margin and where that price comes from; the
// default markup for services without a price; and the preview of a
// markup or a selling price before it is saved (issue 44).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Schemas } from '../../api/types';
import { useFeatureMutation, type MutationConfig } from '../../lib/mutation';
import type { CustomerPrice } from '../customers/types';

const PRICES_PATH = '/api/v1/panel/customer-prices';
const PRICE_PATH = '/api/v1/panel/customer-prices/{service_id}';
const MARKUP_PATH = '/api/v1/panel/customer-markup';
const PREVIEW_PATH = '/api/v1/panel/customer-prices/preview';

export type PriceList = Schemas['CustomerPriceList'];
export type PricePreview = Schemas['CustomerPricePreview'];
export type PricePreviewList = Schemas['CustomerPricePreviewList'];
/** A change to preview: a default markup, or one service's selling price. */
export type PreviewChange = { markup: string } | { service_id: number; price: string };

export const customerPriceKeys = { all: [PRICES_PATH] as const };

export function useCustomerPrices() {
  return useQuery({ queryKey: customerPriceKeys.all, queryFn: () => call(api.GET(PRICES_PATH)) });
}

/**
 * What the reseller's customers would pay under a change not saved yet: per
 * service its own cost, the list price, the current and the resulting
 * customer price and `below_list`, computed by the server with the function
 * that charges the calls (nothing is computed here). null: no preview.
 */
export function useCustomerPricePreview(change: PreviewChange | null) {
  return useQuery({
    queryKey: [PRICES_PATH, 'preview', change] as const, // under customerPriceKeys.all: a save refreshes it
    queryFn: () => call(api.GET(PREVIEW_PATH, { params: { query: change! } })),
    enabled: change !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** Sets the selling price of a service (422 below_cost under `price` when under the reseller's own cost). */
export function useSetCustomerPrice(config?: MutationConfig<CustomerPrice, { serviceId: number; price: string }>) {
  return useFeatureMutation({
    mutationFn: ({ serviceId, price }: { serviceId: number; price: string }) =>
      call(api.PUT(PRICE_PATH, { params: { path: { service_id: serviceId } }, body: { price } })),
    onSuccess: (qc) => void qc.invalidateQueries({ queryKey: customerPriceKeys.all }),
  }, config);
}

/** Removes the selling price: the service falls back to the markup or the list price. */
export function useClearCustomerPrice(config?: MutationConfig<unknown, number>) {
  return useFeatureMutation({
    mutationFn: (serviceId: number) => call(api.DELETE(PRICE_PATH, { params: { path: { service_id: serviceId } } })),
    onSuccess: (qc) => void qc.invalidateQueries({ queryKey: customerPriceKeys.all }),
  }, config);
}

export function useSetMarkup(config?: MutationConfig<{ default_markup: string | null }, string | null>) {
  return useFeatureMutation({
    mutationFn: (markup: string | null) => call(api.PUT(MARKUP_PATH, { body: { default_markup: markup } })),
    onSuccess: (qc) => void qc.invalidateQueries({ queryKey: customerPriceKeys.all }),
  }, config);
}
