// Ask for a top-up: amount, UTR number, payment method, remarks and a
// screenshot of the transfer (previewed before sending), sent as
// multipart/form-data. The API's field errors land next to their fields.
import { useEffect, useState } from 'react';
import { Button, FileInput, Group, Image, Paper, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPaperclip } from '@tabler/icons-react';
import { ApiError } from '../../../api/errors';
import type { Schemas } from '../../../api/types';
import { FormError } from '../../../components/States';
import { useCreateBalanceRequest } from '../../../features/balanceRequests/api';
import { useApiFormErrors } from '../../../forms/useApiFormErrors';
import { formatINR, signOf } from '../../../lib/money';

const MAX_FILE = 5 * 1024 * 1024;
const TYPES = ['image/png', 'image/jpeg', 'image/webp', 'application/pdf'];
export const METHODS = [
  { value: 'upi', label: 'UPI' },
  { value: 'imps', label: 'IMPS' },
  { value: 'neft', label: 'NEFT' },
  { value: 'rtgs', label: 'RTGS' },
  { value: 'bank_transfer', label: 'Bank transfer' },
  { value: 'cheque', label: 'Cheque' },
];

interface Values {
  amount: string;
  utr_number: string;
  payment_method: string;
  remarks: string;
  screenshot: File | null;
}

function Preview({ file }: { file: File | null }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file || !file.type.startsWith('image/')) {
      setUrl(null);
      return;
    }
    const u = URL.createObjectURL(file);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [file]);
  if (!file) return null;
  return (
    <Paper withBorder p="xs" radius="md">
      {url ? <Image src={url} alt="Preview of the screenshot" mah={220} fit="contain" data-testid="screenshot-preview" />
        : <Text size="sm">{file.name} (PDF, {Math.ceil(file.size / 1024)} KB)</Text>}
    </Paper>
  );
}

export function RequestForm({ onCreated }: { onCreated?: (r: Schemas['BalanceRequest']) => void }) {
  const form = useForm<Values>({
    initialValues: { amount: '', utr_number: '', payment_method: 'upi', remarks: '', screenshot: null },
    validate: {
      amount: (v) => (!/^\d+(\.\d{1,2})?$/.test(v.trim()) ? 'Enter an amount in rupees, e.g. 500 or 500.50' : signOf(v.trim()) <= 0 ? 'Enter an amount above zero' : null),
      utr_number: (v) => (/^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$/.test(v.trim()) && v.trim().length >= 6 && v.trim().length <= 50
        ? null : 'The UTR number: 6 to 50 letters and digits'),
      remarks: (v) => (v.length > 1000 ? 'Use at most 1000 characters' : null),
      screenshot: (f) => (f && !TYPES.includes(f.type) ? 'Choose a PNG, JPEG, WebP or PDF file' : f && f.size > MAX_FILE ? 'The file is larger than 5 MB' : null),
    },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  const create = useCreateBalanceRequest({
    onSuccess: (r) => {
      form.reset();
      onCreated?.(r);
    },
    onError: (err) => {
      // A UTR already submitted is a 409 without field errors: put it on the field.
      if (err instanceof ApiError && err.code === 'utr_taken') {
        form.setFieldError('utr_number', err.message);
        clearFormError();
        return;
      }
      onApiError(err);
    },
  });
  const amount = form.getValues().amount.trim();
  return (
    <form noValidate onSubmit={form.onSubmit((v) => { clearFormError(); create.mutate({ amount: v.amount.trim(), utr_number: v.utr_number.trim(), payment_method: v.payment_method, remarks: v.remarks.trim(), screenshot: v.screenshot }); })} aria-label="Request balance">
      <Stack gap="sm">
        <FormError message={formError} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label="Amount (₹)" required inputMode="decimal" placeholder="500.00" autoComplete="off"
            description={/^\d+(\.\d{1,2})?$/.test(amount) ? formatINR(amount) : 'Rupees, up to 2 decimals'} {...form.getInputProps('amount')} />
          <TextInput label="UTR number" required placeholder="The bank's transaction reference" autoComplete="off" {...form.getInputProps('utr_number')} />
          <Select label="Payment method" data={METHODS} allowDeselect={false} {...form.getInputProps('payment_method')} />
          <FileInput label="Screenshot" placeholder="PNG, JPEG, WebP or PDF, at most 5 MB" clearable
            accept={TYPES.join(',')} leftSection={<IconPaperclip size={14} aria-hidden />} {...form.getInputProps('screenshot')} />
        </SimpleGrid>
        <Preview file={form.getValues().screenshot} />
        <Textarea label="Remarks" placeholder="Anything the reviewer should know (optional)" autosize minRows={2} {...form.getInputProps('remarks')} />
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>Send request</Button>
        </Group>
      </Stack>
    </form>
  );
}
