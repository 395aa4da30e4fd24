// Placeholder: replace this file's body with the screen (route: see src/app/routes.tsx).
import { Placeholder } from '../../components/Placeholder';

export default function ApiKeys() {
  return <Placeholder title="API keys" description="Create (secret shown once), restrictions, rotate, revoke." />;
}
