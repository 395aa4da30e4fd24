// Placeholder: replace this file's body with the screen (route: see src/app/routes.tsx).
import { Placeholder } from '../../components/Placeholder';

export default function Services() {
  return <Placeholder title="Services" description="The service catalog." />;
}
