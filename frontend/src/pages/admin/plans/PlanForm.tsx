// A plan's form: a new plan (POST /plans) or the edit of one (PATCH
// /plans/{code}: only the fields that changed are sent; status retires or
// activates it). The API's field errors show beside their fields.
import { Button, Checkbox, Group, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ApiError } from '../../../api/errors';
import { FormError } from '../../../components/States';
import { useCreatePlan, useUpdatePlan, type Plan, type PlanPatch } from '../../../features/plans/api';
import { useApiFormErrors } from '../../../forms/useApiFormErrors';
import { compareDecimal, formatINR } from '../../../lib/money';
import { amountError, MONEY2 } from '../shared/money';

interface Values {
  code: string;
  name: string;
  monthly_price: string;
  /** monthly_price null: agreed per account. */
  custom_price: boolean;
  monthly_calls: string;
  /** monthly_calls null. */
  unlimited: boolean;
  /** One feature a line. */
  features: string;
  public: boolean;
  status: Plan['status'];
}

const CODE = /^[a-z0-9][a-z0-9-]{0,49}$/;
const CALLS = /^[0-9]{1,9}$/;
const MAX_FEATURES = 20;

/** The feature lines, trimmed, blank ones left out. */
function featureList(text: string): string[] {
  return text.split('\n').map((l) => l.trim()).filter(Boolean);
}

// The API names an item's error features.N: it shows on the features field.
const ALIASES = Object.fromEntries(Array.from({ length: MAX_FEATURES }, (_, i) => [`features.${i}`, 'features']));

function initial(plan?: Plan): Values {
  return {
    code: plan?.code ?? '',
    name: plan?.name ?? '',
    monthly_price: plan?.monthly_price ?? '',
    custom_price: plan ? plan.monthly_price === null : false,
    monthly_calls: plan?.monthly_calls === null || plan?.monthly_calls === undefined ? '' : String(plan.monthly_calls),
    unlimited: plan ? plan.monthly_calls === null : false,
    features: plan?.features.join('\n') ?? '',
    public: plan?.public ?? true,
    status: plan?.status ?? 'active',
  };
}

const price = (v: Values) => (v.custom_price ? null : v.monthly_price.trim());
const calls = (v: Values) => (v.unlimited ? null : parseInt(v.monthly_calls.trim(), 10)); // not money: a count of calls

/** What changed from `plan` (the PATCH body); empty when nothing did. */
function changes(plan: Plan, v: Values): PlanPatch {
  const body: PlanPatch = {};
  if (v.name.trim() !== plan.name) body.name = v.name.trim();
  const p = price(v);
  if (p === null ? plan.monthly_price !== null : plan.monthly_price === null || !MONEY2.test(p) || compareDecimal(p, plan.monthly_price) !== 0) {
    body.monthly_price = p;
  }
  // (An invalid count counts as a change: the form's check then says what is wrong.)
  if (!v.unlimited && !CALLS.test(v.monthly_calls.trim())) body.monthly_calls = null;
  else if (calls(v) !== plan.monthly_calls) body.monthly_calls = calls(v);
  const f = featureList(v.features);
  if (f.join('\n') !== plan.features.join('\n')) body.features = f;
  if (v.public !== plan.public) body.public = v.public;
  if (v.status !== plan.status) body.status = v.status;
  return body;
}

export function PlanForm({ plan, onDone }: { plan?: Plan; onDone: (p: Plan) => void }) {
  const editing = plan !== undefined;
  const form = useForm<Values>({
    initialValues: initial(plan),
    validate: {
      code: (v) => (editing || CODE.test(v.trim()) ? null : 'Lowercase letters, digits and dashes, starting with a letter or digit; at most 50'),
      name: (v) => (!v.trim() ? 'Give the plan a name' : v.trim().length > 100 ? 'At most 100 characters' : null),
      monthly_price: (v, all) => (all.custom_price ? null : amountError(v, 2)),
      monthly_calls: (v, all) => (all.unlimited || CALLS.test(v.trim()) ? null : 'A whole number of calls, e.g. 1000'),
      features: (v) => {
        const f = featureList(v);
        if (f.length > MAX_FEATURES) return `At most ${MAX_FEATURES} features`;
        const long = f.find((l) => l.length > 100);
        return long ? `A feature has at most 100 characters: “${long.slice(0, 30)}…”` : null;
      },
    },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form, ALIASES);
  // A code already taken, or the default plan's status, is a 409 about one field.
  const onError = (err: Error) => {
    if (err instanceof ApiError && err.status === 409 && !editing) {
      form.setFieldError('code', `A plan with the code “${form.getValues().code.trim()}” exists already: choose another code`);
      return;
    }
    if (err instanceof ApiError && err.status === 409 && form.getValues().status !== plan?.status) {
      form.setFieldError('status', err.message);
      return;
    }
    onApiError(err);
  };
  const create = useCreatePlan({ onSuccess: onDone, onError });
  const update = useUpdatePlan({ onSuccess: onDone, onError });
  const body = plan ? changes(plan, form.values) : null;
  const unchanged = body !== null && Object.keys(body).length === 0;

  const submit = (v: Values) => {
    clearFormError();
    if (plan) {
      update.mutate({ code: plan.code, body: changes(plan, v) });
      return;
    }
    create.mutate({
      code: v.code.trim(), name: v.name.trim(), monthly_price: price(v), monthly_calls: calls(v),
      features: featureList(v.features), public: v.public,
    });
  };
  const typedPrice = form.values.monthly_price.trim();

  return (
    <form noValidate aria-label={editing ? `Plan ${plan.name}` : 'New plan'} onSubmit={form.onSubmit(submit, () => clearFormError())}>
      <Stack gap="sm">
        <FormError message={formError} />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput label="Name" required maxLength={100} autoComplete="off" {...form.getInputProps('name')} />
          <TextInput label="Code" required={!editing} disabled={editing} autoComplete="off" spellCheck={false}
            description={editing ? 'A plan keeps its code' : 'Lowercase, e.g. growth'} {...form.getInputProps('code')} />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Stack gap={6}>
            <TextInput label="Monthly price (₹)" required={!form.values.custom_price} disabled={form.values.custom_price}
              inputMode="decimal" autoComplete="off" placeholder={form.values.custom_price ? 'Agreed per account' : '499.00'}
              description={!form.values.custom_price && MONEY2.test(typedPrice) ? `${formatINR(typedPrice)} a month` : 'Charged from the wallet each month'}
              {...form.getInputProps('monthly_price')} />
            <Checkbox label="Price agreed per account" {...form.getInputProps('custom_price', { type: 'checkbox' })}
              onChange={(e) => { form.setFieldValue('custom_price', e.currentTarget.checked); form.clearFieldError('monthly_price'); }} />
          </Stack>
          <Stack gap={6}>
            <TextInput label="Calls a month" required={!form.values.unlimited} disabled={form.values.unlimited}
              inputMode="numeric" autoComplete="off" placeholder={form.values.unlimited ? 'Unlimited' : '1000'}
              description="Billed calls allowed in a calendar month" {...form.getInputProps('monthly_calls')} />
            <Checkbox label="Unlimited calls" {...form.getInputProps('unlimited', { type: 'checkbox' })}
              onChange={(e) => { form.setFieldValue('unlimited', e.currentTarget.checked); form.clearFieldError('monthly_calls'); }} />
          </Stack>
        </SimpleGrid>
        <Textarea label="Features" description={`Shown to users, one a line (at most ${MAX_FEATURES})`} autosize minRows={3} maxRows={8}
          {...form.getInputProps('features')} />
        <Checkbox label="Public: users may switch to it themselves" {...form.getInputProps('public', { type: 'checkbox' })} />
        {editing && (
          <Select label="Status" allowDeselect={false} data={[
            { value: 'active', label: 'Active' },
            { value: 'retired', label: 'Retired: nobody new moves onto it' },
          ]} description="A retired plan keeps its subscribers until they move" {...form.getInputProps('status')} />
        )}
        {editing && <Text size="xs" c="dimmed">A new allowance applies to the plan's subscribers from their next call; a new price to accounts that move onto it afterwards.</Text>}
        <Group justify="flex-end">
          <Button type="submit" disabled={unchanged} loading={create.isPending || update.isPending}>{editing ? 'Save plan' : 'Create plan'}</Button>
        </Group>
      </Stack>
    </form>
  );
}
