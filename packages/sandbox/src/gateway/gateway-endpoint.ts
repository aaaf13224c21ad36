/**
 * Where the sandbox's proxy gateway listens. Every subscription, sub-user and mobile port shares it:
 * the proxy username says which account a connection belongs to.
 */
export interface GatewayEndpoint {
  host: string;
  httpPort: number;
  socksPort: number;
}
