// One service: its documentation rendered from the docs record, the try-it
// console, whose form is generated from the docs' request_params (or,
// without docs, from the service's parameter list, every entry optional, as
// the API then checks calls), and the call as code in five languages
// (Samples, from GET /services/{id}/samples).
import { useMemo } from 'react';
import { Anchor, Badge, Group, SimpleGrid, Text } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/errors';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, Loading } from '../../components/States';
import { useService, useServiceDocs } from '../../features/services/api';
import { parseId } from '../../lib/ids';
import { signOf } from '../../lib/money';
import { Docs } from './serviceDetail/Docs';
import { fieldsFromParameters, fieldsFromSpecs } from './serviceDetail/paramForm';
import { Samples } from './serviceDetail/Samples';
import { TryIt } from './serviceDetail/TryIt';

export default function ServiceDetail() {
  const id = parseId(useParams().id);
  const service = useService(id);
  const docs = useServiceDocs(id);
  const fields = useMemo(() => {
    const specs = docs.data?.request_params;
    return specs && Object.keys(specs).length > 0 ? fieldsFromSpecs(specs) : fieldsFromParameters(service.data?.parameters);
  }, [docs.data, service.data]);

  const back = <Anchor component={Link} to="/services" size="sm">← All services</Anchor>;
  if (id === null || (service.error instanceof ApiError && service.error.status === 404)) {
    return (
      <>
        <PageHeader title="Service" />
        <EmptyState title="No such service" description={back} />
      </>
    );
  }
  if (service.isPending || docs.isPending) return <><PageHeader title="Service" /><Loading label="Loading the service…" /></>;
  if (service.isError) return <><PageHeader title="Service" /><ErrorState error={service.error} onRetry={() => void service.refetch()} /></>;
  if (docs.isError) return <><PageHeader title="Service" /><ErrorState error={docs.error} onRetry={() => void docs.refetch()} /></>;
  const s = service.data;
  return (
    <>
      {back}
      <PageHeader
        title={s.name}
        description={
          <Group gap="xs" component="span" wrap="wrap">
            <Badge variant="light" component="span">{s.category}</Badge>
            <Text span size="sm" data-testid="service-price">
              {s.price === null
                ? 'Not priced for you yet'
                : <><Money value={s.price} fw={600} /> per call{s.minimum_hit_charge && signOf(s.minimum_hit_charge) > 0
                  ? <Text span size="sm" c="dimmed"> (minimum <Money value={s.minimum_hit_charge} />)</Text> : null}</>}
            </Text>
            <Text span size="sm" c="dimmed">{s.description}</Text>
          </Group>
        }
      />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <Docs doc={docs.data} fields={fields} service={s} />
        <TryIt service={s} fields={fields} />
      </SimpleGrid>
      <Samples serviceId={id} />
    </>
  );
}
