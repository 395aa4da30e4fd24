// Placeholder: replace this file's body with the screen (route: see src/app/routes.tsx).
import { Placeholder } from '../../components/Placeholder';

export default function AuditLog() {
  return <Placeholder title="Audit log" description="Admin actions." />;
}
