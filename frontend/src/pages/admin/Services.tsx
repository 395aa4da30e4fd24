// Placeholder: replace this file's body with the screen (route: see src/app/routes.tsx).
import { Placeholder } from '../../components/Placeholder';

export default function AdminServices() {
  return <Placeholder title="Manage services" description="Create and edit services." />;
}
