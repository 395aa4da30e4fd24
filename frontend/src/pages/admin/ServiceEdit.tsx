// Placeholder: replace this file's body with the screen (route: see src/app/routes.tsx).
import { Placeholder } from '../../components/Placeholder';

export default function ServiceEdit() {
  return <Placeholder title="Service" description="Headers and parameters editors, docs editor, pricing table with per-user overrides." />;
}
