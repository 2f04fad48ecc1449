import { COOKIE_EXPIRY_DAYS } from '@portico/contracts/constants';
import { en } from '@portico/contracts/messages';

/** The cookie popup's texts of an install whose content/ has none (spec B 2.7's wording). */
export function defaultConsent() {
  return {
    popup: { body: en.cookies.popupBody, accept: en.cookies.ok, dismiss: en.cookies.decline },
    labelCheckBox: en.cookies.analyticsLabel,
    expiryDays: COOKIE_EXPIRY_DAYS,
  };
}
