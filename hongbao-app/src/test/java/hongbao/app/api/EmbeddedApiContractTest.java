package hongbao.app.api;

import hongbao.app.support.Backends;

/** The contract on the embedded Redis and PostgreSQL. */
class EmbeddedApiContractTest extends ApiContractTest {

  @Override
  Backends backends() {
    return Backends.embedded();
  }
}
