/* libLeadPhone.so implements the interface in cleadphone.h (the CLeadPhoneAPI target). */
#include "cleadphone.h"
