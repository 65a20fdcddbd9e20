/**
 * The seller dashboard (DESIGN §15): a single-page application over the panel API, served by the API at
 * `/dashboard`. React renders it; React Router maps the address to a page (the API answers `index.html` for every
 * page's address); TanStack Query keeps the server's state (apps/dashboard/README.md says why each).
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router";
import { ApiRequestError } from "./api/client";
import { StepUpProvider } from "./api/step-up";
import { Layout } from "./components/layout";
import { I18nProvider } from "./i18n/i18n";
import { ModeProvider } from "./mode";
import { ApiKeysPage } from "./pages/api-keys";
import { ChargeDetailPage } from "./pages/charge-detail";
import { ChargesPage } from "./pages/charges";
import { EndpointDetailPage } from "./pages/endpoint-detail";
import { DisputesPage, NotificationsPage } from "./pages/feeds";
import { HomePage } from "./pages/home";
import { ForgotPasswordPage, ResetPasswordPage, TwoFactorRecoveryPage, VerifyEmailPage } from "./pages/mailed-links";
import { NotFoundPage } from "./pages/not-found";
import { PayoutsPage } from "./pages/payouts";
import { SecurityPage } from "./pages/security";
import { SignInPage } from "./pages/sign-in";
import { SignUpPage } from "./pages/sign-up";
import { TwoFactorSetupPage } from "./pages/two-factor-setup";
import { WebhooksPage } from "./pages/webhooks";
import "./styles.css";

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 5_000,
      // A refusal (4xx) will not change by asking again; a network error or a 5xx might.
      retry: (failures, err) => failures < 2 && !(err instanceof ApiRequestError && err.status < 500),
    },
  },
});

/** Every page's address under `/dashboard` (at most two segments: the API serves `index.html` for those). */
const router = createBrowserRouter(
  [
    { path: "/sign-in", element: <SignInPage /> },
    { path: "/sign-up", element: <SignUpPage /> },
    { path: "/verify-email", element: <VerifyEmailPage /> },
    { path: "/forgot-password", element: <ForgotPasswordPage /> },
    { path: "/reset-password", element: <ResetPasswordPage /> },
    { path: "/two-factor/recovery", element: <TwoFactorRecoveryPage /> },
    {
      element: <Layout />,
      children: [
        { index: true, element: <HomePage /> },
        { path: "/two-factor/setup", element: <TwoFactorSetupPage /> },
        { path: "/charges", element: <ChargesPage /> },
        { path: "/charges/:id", element: <ChargeDetailPage /> },
        { path: "/webhooks", element: <WebhooksPage /> },
        { path: "/webhooks/:id", element: <EndpointDetailPage /> },
        { path: "/api-keys", element: <ApiKeysPage /> },
        { path: "/payouts", element: <PayoutsPage /> },
        { path: "/disputes", element: <DisputesPage /> },
        { path: "/notifications", element: <NotificationsPage /> },
        { path: "/security", element: <SecurityPage /> },
        { path: "*", element: <NotFoundPage /> },
      ],
    },
  ],
  { basename: "/dashboard" },
);

const root = document.getElementById("root");
if (root === null) throw new Error("the page has no #root");
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <I18nProvider>
        <ModeProvider>
          <StepUpProvider>
            <RouterProvider router={router} />
          </StepUpProvider>
        </ModeProvider>
      </I18nProvider>
    </QueryClientProvider>
  </StrictMode>,
);
