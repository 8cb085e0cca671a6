import { Module } from '@nestjs/common';
import { SimulatorController } from './http/simulator.controller';

/** `.mergify.yml` checking over HTTP: the configuration and repository simulators. */
@Module({
  controllers: [SimulatorController],
})
export class ConfigModule {}
