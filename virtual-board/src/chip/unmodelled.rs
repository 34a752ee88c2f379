//! Names for the addresses no model answers, so that a refused access says what it touched:
//! the peripherals of the memory map (RM0390 table 1) and the core's SCS. One function, which
//! the map calls for every address outside its rows.

/// The peripheral (RM0390, memory map) and register at `address`, where they are known.
pub fn name(address: u32) -> (Option<&'static str>, Option<&'static str>) {
    const BLOCKS: &[(u32, &str)] = &[
        (0x4000_0000, "TIM2"),
        (0x4000_0400, "TIM3"),
        (0x4000_0800, "TIM4"),
        (0x4000_0C00, "TIM5"),
        (0x4000_2800, "RTC"),
        (0x4000_2C00, "WWDG"),
        (0x4000_3000, "IWDG"),
        (0x4000_3800, "SPI2"),
        (0x4000_3C00, "SPI3"),
        (0x4000_4400, "USART2"),
        (0x4000_4800, "USART3"),
        (0x4000_5400, "I2C1"),
        (0x4000_7000, "PWR"),
        (0x4001_0000, "TIM1"),
        (0x4001_1000, "USART1"),
        (0x4001_2000, "ADC1"),
        (0x4001_3000, "SPI1"),
        (0x4001_3800, "SYSCFG"),
        (0x4001_3C00, "EXTI"),
        (0x4002_0000, "GPIOA"),
        (0x4002_0400, "GPIOB"),
        (0x4002_0800, "GPIOC"),
        (0x4002_0C00, "GPIOD"),
        (0x4002_1000, "GPIOE"),
        (0x4002_1C00, "GPIOH"),
        (0x4002_3000, "CRC"),
        (0x4002_3800, "RCC"),
        (0x4002_3C00, "FLASH"),
        (0x4002_6000, "DMA1"),
        (0x4002_6400, "DMA2"),
        (0xE000_E000, "SCS"),
        (0xE000_1000, "DWT"),
        (0xE004_2000, "DBGMCU"),
    ];
    let Some(&(_, name)) = BLOCKS
        .iter()
        .find(|(base, _)| (*base..base + 0x400).contains(&address))
    else {
        return (None, None);
    };
    (Some(name), None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unmodelled_registers_are_named_from_the_memory_map() {
        assert_eq!(name(0x4000_4400), (Some("USART2"), None));
        assert_eq!(name(0x4000_7000), (Some("PWR"), None));
        assert_eq!(name(0x5000_0000), (None, None));
    }
}
