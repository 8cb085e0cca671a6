/** Who did something: the identity behind the key or token that made the request. */
export interface Actor {
  type: 'application' | 'user';
  id: number | string;
  name: string;
}
