// The signed-in layout: header (menu button on phones, balance, account
// menu), a navbar built from the route table for the user's role, and the
// screen. Lazy-loaded: the login route does not load it.
import { Suspense, useEffect } from 'react';
import { Link, Outlet, useLocation, useNavigate, useNavigation } from 'react-router';
import { BrandMark, BrandSupport } from '../components/BrandMark';
import { AppShell, Anchor, Badge, Burger, Group, Loader, Menu, NavLink, ScrollArea, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconBook, IconChevronDown, IconLogout, IconUser } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { navFor } from './routes';
import { useUser } from '../auth/useSession';
import { useMe } from '../auth/useMe';
import { session } from '../auth/session';
import { Money } from '../components/Money';
import { Loading } from '../components/States';

function isActive(pathname: string, path: string): boolean {
  if (path === '/admin') return pathname === '/admin';
  return pathname === path || pathname.startsWith(path + '/');
}

export default function Shell() {
  const [opened, { toggle, close }] = useDisclosure(false);
  // Below the sm breakpoint the folded navbar is only moved off screen: make
  // it inert so Tab does not walk through links nobody can see.
  const phone = useMediaQuery('(max-width: 47.99em)');
  const user = useUser();
  const me = useMe();
  const loc = useLocation();
  const navigate = useNavigate();
  const loadingScreen = useNavigation().state === 'loading'; // the next screen's chunk is on its way
  const qc = useQueryClient();

  // On a phone the navbar covers the screen: close it after navigating.
  useEffect(close, [loc.pathname, close]);

  const signOut = async () => {
    await session.signOut();
    qc.clear();
    navigate('/login', { replace: true });
  };

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <a href="#main" className="skip-link">Skip to content</a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={opened ? 'Close navigation' : 'Open navigation'} />
            <Anchor component={Link} to="/" underline="never" c="inherit" title="Home"><BrandMark size="lg" /></Anchor>
            {loadingScreen && <Loader size="xs" aria-label="Loading the page" data-testid="route-loading" />}
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Text size="sm">
              <Text span size="xs" c="dimmed">Balance </Text>
              <Money value={me.data?.balance ?? user.balance} fw={600} data-testid="header-balance" />
            </Text>
            {/* The account menu's name starts with its visible text (name, role): label-content-name-mismatch. */}
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <UnstyledButton aria-label={`${user.name} ${user.role}: account menu`} data-testid="account-menu">
                  <Group gap={4} wrap="nowrap">
                    <Text size="sm" fw={500} maw={140} truncate visibleFrom="xs">{user.name}</Text>
                    <IconUser size={18} aria-hidden className="phone-only" />
                    <Badge size="xs" variant="light" visibleFrom="xs">{user.role}</Badge>
                    <IconChevronDown size={14} aria-hidden />
                  </Group>
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>{user.email}</Menu.Label>
                <Menu.Label hiddenFrom="xs">{user.name}</Menu.Label>
                <Menu.Item leftSection={<IconUser size={14} aria-hidden />} component={Link} to="/profile">Profile</Menu.Item>
                <Menu.Item leftSection={<IconLogout size={14} aria-hidden />} onClick={signOut}>Sign out</Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="xs" aria-label="Main navigation" inert={phone && !opened}>
        <AppShell.Section grow component={ScrollArea}>
          {navFor(user.role).map((g) => (
            <div key={g.group} role="group" aria-label={g.group}>
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mt="sm" mb={4}>{g.group}</Text>
              {g.items.map((s) => {
                const Icon = s.nav!.icon;
                const active = isActive(loc.pathname, s.path);
                return (
                  <NavLink
                    key={s.path}
                    component={Link}
                    to={s.path}
                    label={s.nav!.label}
                    leftSection={<Icon size={18} stroke={1.6} aria-hidden />}
                    active={active}
                    aria-current={active ? 'page' : undefined}
                  />
                );
              })}
            </div>
          ))}
        </AppShell.Section>
        <AppShell.Section>
          <BrandSupport px="sm" />
          <NavLink component="a" href="/api/docs" target="_blank" rel="noopener" label="API reference"
            description="Every endpoint, opens in a new tab" leftSection={<IconBook size={18} stroke={1.6} aria-hidden />}
            data-testid="api-docs-link" />
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main id="main" tabIndex={-1}>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
