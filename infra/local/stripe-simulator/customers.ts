import type { ApiCall } from './operation.js';
import { noSuchObject } from './errors.js';
import { newId, nowSeconds, randomToken, type CustomerObject } from './objects.js';
import type { SimulatorStore } from './store.js';

export function findCustomer(store: SimulatorStore, id: string, param = 'id'): CustomerObject {
  const customer = store.data.customers[id];
  if (!customer) throw noSuchObject('customer', id, param);
  return customer;
}

/** POST /v1/customers: the fields the simulator keeps; PaymentMethods are attached by payments that save them. */
export function createCustomer(call: ApiCall): CustomerObject {
  const { params } = call;
  const customer: CustomerObject = {
    id: newId('cus', 14),
    object: 'customer',
    balance: 0,
    created: nowSeconds(),
    currency: null,
    default_source: null,
    delinquent: false,
    description: params.string('description') ?? null,
    email: params.string('email') ?? null,
    invoice_prefix: randomToken(7).toUpperCase(),
    livemode: false,
    metadata: params.metadata(),
    name: params.string('name') ?? null,
    phone: params.string('phone') ?? null,
    preferred_locales: [],
    tax_exempt: 'none',
  };
  call.op.store.data.customers[customer.id] = customer;
  call.op.emit('customer.created', customer);
  return customer;
}

/** GET /v1/customers/:id */
export const retrieveCustomer = (call: ApiCall): CustomerObject => findCustomer(call.op.store, call.id);
