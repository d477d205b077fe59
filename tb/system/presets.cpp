#include "tb/system/presets.h"

#include "tb/system/embedded_presets.h"

namespace gms {

const char* embedded_fermi_yaml() {
  return kEmbeddedFermiYaml;
}

}  // namespace gms
