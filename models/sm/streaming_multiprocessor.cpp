#include "models/sm/streaming_multiprocessor.h"

namespace gms {

StreamingMultiprocessor::StreamingMultiprocessor(sc_core::sc_module_name name, unsigned sm_id,
                                                 MemObserver* observer)
    : sc_core::sc_module(name), isock("isock"), sm_id_(sm_id), observer_(observer) {
  isock.register_nb_transport_bw(this, &StreamingMultiprocessor::bw_cb);
}

StreamingMultiprocessor::~StreamingMultiprocessor() = default;

}  // namespace gms
