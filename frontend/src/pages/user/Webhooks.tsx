// Placeholder: replace this file's body with the screen (route: see src/app/routes.tsx).
import { Placeholder } from '../../components/Placeholder';

export default function Webhooks() {
  return <Placeholder title="Webhooks" description="URL, secret rotation, deliveries and redelivery." />;
}
