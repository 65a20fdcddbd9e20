/** A dashboard address that names no page. */
import { Link } from "react-router";
import { PageTitle } from "../components/page-title";
import { useI18n } from "../i18n/i18n";

/** The page shown for an unknown address. */
export function NotFoundPage() {
  const { t } = useI18n();
  return (
    <>
      <PageTitle title={t("notFound.title")} />
      <p>
        <Link to="/">{t("nav.home")}</Link>
      </p>
    </>
  );
}
