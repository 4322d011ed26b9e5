// Version-gated helpers over libexpat. Everything else is expat.h as installed.
//
// Debian 12 ships expat 2.5.0, which lacks XML_SetReparseDeferralEnabled (2.6.0);
// Apple SDKs and Homebrew may be newer. SAXDispatch defers re-parsing itself, the
// same way on every version, so it turns expat's own deferral off where it exists.
#ifndef SAXDISPATCH_CEXPAT_SHIM_H
#define SAXDISPATCH_CEXPAT_SHIM_H

#include <expat.h>

#define SAXDISPATCH_EXPAT_AT_LEAST(major, minor, micro)                        \
  ((XML_MAJOR_VERSION > (major)) ||                                            \
   (XML_MAJOR_VERSION == (major) && XML_MINOR_VERSION > (minor)) ||            \
   (XML_MAJOR_VERSION == (major) && XML_MINOR_VERSION == (minor) &&            \
    XML_MICRO_VERSION >= (micro)))

/// Turns expat's built-in reparse deferral (2.6.0+) on or off; a no-op before 2.6.0.
static inline void saxdispatch_set_reparse_deferral(XML_Parser parser, int enabled) {
#if SAXDISPATCH_EXPAT_AT_LEAST(2, 6, 0)
  XML_SetReparseDeferralEnabled(parser, enabled ? XML_TRUE : XML_FALSE);
#else
  (void)parser;
  (void)enabled;
#endif
}

#if SAXDISPATCH_EXPAT_AT_LEAST(2, 4, 0) && !defined(XML_DTD)
// expat.h declares these only when XML_DTD is defined where it is included, which a
// library built with DTD support (expat's default, Debian's, Apple's) does not require of
// its users. Without a prototype, C would pass the float as a double and the call would
// refuse it: the profile's ratio and threshold would not reach expat.
XMLPARSEAPI(XML_Bool)
XML_SetBillionLaughsAttackProtectionMaximumAmplification(XML_Parser parser, float maximumAmplificationFactor);
XMLPARSEAPI(XML_Bool)
XML_SetBillionLaughsAttackProtectionActivationThreshold(XML_Parser parser, unsigned long long activationThresholdBytes);
#endif

/// Configures expat's billion-laughs protection (2.4.0+); returns 0 where it is missing.
static inline int saxdispatch_set_amplification_limits(XML_Parser parser,
                                                       float maximumAmplification,
                                                       unsigned long long activationThreshold) {
#if SAXDISPATCH_EXPAT_AT_LEAST(2, 4, 0)
  return XML_SetBillionLaughsAttackProtectionMaximumAmplification(parser, maximumAmplification) &&
         XML_SetBillionLaughsAttackProtectionActivationThreshold(parser, activationThreshold);
#else
  (void)parser;
  (void)maximumAmplification;
  (void)activationThreshold;
  return 0;
#endif
}

#endif
